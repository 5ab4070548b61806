import type { Language } from '@guquan/contract/language';

/*
 * Every date the site shows, in one place. Dates the server renders are written by hand (the
 * server's and the browser's ICU may differ, and hydration needs the same text to the letter);
 * dates only the browser renders (the in-app pages) use the browser's Intl.
 */

/** An instant as a date, in the reader's language (browser only). */
export function formatDate(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long' }).format(new Date(iso));
}

/** An instant as a date and time, in the reader's language (browser only). */
export function formatDateTime(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'short' }).format(
    new Date(iso),
  );
}

/** The calendar day of an instant in China (UTC+8, no daylight saving), as YYYY-MM-DD. */
export function chinaDay(iso: string): string {
  const shifted = new Date(Date.parse(iso) + 8 * 60 * 60 * 1000);
  return shifted.toISOString().slice(0, 10);
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * YYYY-MM-DD as a reader writes it ("2025年10月15日"; in English as in the US, the region the
 * site's English follows, as the browser's Intl 'en' does on the in-app pages: "October 15, 2025");
 * done by hand so server and browser agree to the letter.
 */
export function formatCalendarDate(isoDate: string, language: Language): string {
  const [year, month, day] = isoDate.split('-').map(Number);
  if (!year || !month || !day) return isoDate;
  return language === 'zh-CN'
    ? `${year}年${month}月${day}日`
    : `${MONTHS[month - 1] ?? ''} ${day}, ${year}`;
}

/**
 * A copyright notice's years: from `firstYear` (the content file's) to the year of `now` in China
 * (the render's clock), "2025–2026", or the one year while they are the same.
 */
export function copyrightYears(firstYear: number, now: Date = new Date()): string {
  const year = Number(chinaDay(now.toISOString()).slice(0, 4));
  return year > firstYear ? `${firstYear}–${year}` : String(firstYear);
}
