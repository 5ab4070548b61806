import { useShareTexts } from '../share-texts';
import styles from './tag-list.module.css';

/** The item's tags, as #tag chips (text only: they are the app's, not links). */
export function TagList({ tags }: { tags: readonly string[] }) {
  const text = useShareTexts();
  if (tags.length === 0) return null;
  return (
    <ul className={styles.list} aria-label={text.tags}>
      {tags.map((tag, index) => (
        <li key={`${tag}-${index}`} className={styles.tag}>
          #{tag}
        </li>
      ))}
    </ul>
  );
}
