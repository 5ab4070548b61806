import { chinaDay, formatCalendarDate } from '../../../lib/format/dates';
import { useLanguage } from '../../../lib/i18n/language-context';
import { fill, useShareTexts } from '../texts/share-texts';

/**
 * When something was posted, as its calendar day in China in the reader's language
 * ("2025年11月2日", "November 2, 2025"): written by hand, so the server's page and the browser's
 * hydration agree, and a cached page stays true (no "3 days ago" frozen in it). With `posted`,
 * as "发布于 …" / "Posted …".
 */
export function ShareDate({ iso, posted = false }: { iso: string; posted?: boolean }) {
  const language = useLanguage();
  const text = useShareTexts();
  const date = formatCalendarDate(chinaDay(iso), language);
  return <time dateTime={iso}>{posted ? fill(text.publishedOn, { date }) : date}</time>;
}
