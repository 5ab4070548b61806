import { AppPlaceLink } from '../open-in-app/app-place-link';
import { useShareTexts } from '../texts/share-texts';
import styles from './tag-list.module.css';

/** The item's tags, as #tag links into the app (the tag's page there). */
export function TagList({ tags }: { tags: readonly string[] }) {
  const text = useShareTexts();
  if (tags.length === 0) return null;
  return (
    <ul className={styles.list} aria-label={text.tags}>
      {tags.map((tag, index) => (
        <li key={`${tag}-${index}`} className={styles.item}>
          <AppPlaceLink place={{ type: 'tag', name: tag }} className={styles.tag}>
            #{tag}
          </AppPlaceLink>
        </li>
      ))}
    </ul>
  );
}
