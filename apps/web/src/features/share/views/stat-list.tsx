import { useLanguage } from '../../../lib/i18n/language-context';
import { AppPlaceLink } from '../open-in-app/app-place-link';
import { pluralText } from '../../../lib/i18n/plural';
import { formatCount } from './share-format';
import { useShareTexts } from '../texts/share-texts';
import styles from './stat-list.module.css';

export type StatKind = 'likes' | 'wants' | 'collects' | 'comments';

const ICONS: Readonly<Record<StatKind, string>> = {
  likes: 'M12 20s-7-4.4-7-10a4 4 0 0 1 7-2.6A4 4 0 0 1 19 10c0 5.6-7 10-7 10z',
  wants: 'M6 8h12l-1 12H7L6 8zm3 0V6a3 3 0 0 1 6 0v2',
  collects: 'M12 4l2.4 5 5.6.6-4.2 3.8 1.2 5.6L12 16.2 7 19l1.2-5.6L4 9.6 9.6 9z',
  comments: 'M5 5h14v10H9l-4 4V5z',
};

/**
 * Likes, wants, collects, comments: icon, number (1.2万 / 12.3k) and its name ("1 like"); each a
 * link into the app, on the item, where the visitor can like, want or comment.
 */
export function StatList({ stats }: { stats: readonly (readonly [StatKind, number])[] }) {
  const text = useShareTexts();
  const language = useLanguage();
  return (
    <ul className={styles.list} aria-label={text.counts}>
      {stats.map(([kind, count]) => (
        <li key={kind}>
          <AppPlaceLink place={null} className={styles.stat}>
            <svg className={styles.icon} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path d={ICONS[kind]} />
            </svg>
            <span className={styles.count}>{formatCount(count, language)}</span>
            <span className={styles.name}>{pluralText(language, count, text[kind])}</span>
          </AppPlaceLink>
        </li>
      ))}
    </ul>
  );
}
