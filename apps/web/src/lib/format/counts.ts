import type { Language } from '@guquan/contract/language';

/*
 * Every count the site shows, in one place. Written out by hand rather than left to Intl, so the
 * server (Node's ICU) and the phone's browser always produce the same text and hydration matches.
 * Both languages read the same way: the whole number below ten thousand ("1,024" in English, "1024"
 * in Chinese, as Chinese apps write it), compact only from where Chinese says 万: 1.2万 / 12.3k,
 * 250万 / 2.5M, 1.2亿 / 123M.
 */

/** Where Chinese starts to write 万, and so where both languages turn compact. */
const COMPACT_FROM = 10_000;

function oneDecimal(value: number): string {
  return (Math.floor(value * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

/** A whole number with English thousands separators: 1024 → "1,024". */
export function withThousandsSeparators(count: number): string {
  return String(Math.trunc(count)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A count the way Chinese and English apps show it: 1024 / 1,024; 1.2万 / 12.3k; 1.2亿 / 123M. */
export function formatCount(count: number, language: Language): string {
  if (language === 'zh-CN') {
    if (count >= 100_000_000) return `${oneDecimal(count / 100_000_000)}亿`;
    return count >= COMPACT_FROM ? `${oneDecimal(count / 10_000)}万` : String(count);
  }
  if (count >= 1_000_000) return `${oneDecimal(count / 1_000_000)}M`;
  return count >= COMPACT_FROM ? `${oneDecimal(count / 1_000)}k` : withThousandsSeparators(count);
}
