import type { Language } from '@guquan/contract/language';

/**
 * Counts as the share pages show them (prices: the contract's price.ts, which their pictures share). Written out rather than left to Intl, so the
 * server (Node's ICU) and the phone's browser always produce the same text and hydration matches.
 */

function oneDecimal(value: number): string {
  return (Math.floor(value * 10) / 10).toFixed(1).replace(/\.0$/, '');
}

/** Counts the way Chinese and English apps show them: 9999, 1.2万 / 999, 1.2k, 3.4M. */
export function formatCount(count: number, language: Language): string {
  if (language === 'zh-CN') {
    if (count >= 100_000_000) return `${oneDecimal(count / 100_000_000)}亿`;
    return count >= 10_000 ? `${oneDecimal(count / 10_000)}万` : String(count);
  }
  if (count >= 1_000_000) return `${oneDecimal(count / 1_000_000)}M`;
  return count >= 1_000 ? `${oneDecimal(count / 1_000)}k` : String(count);
}
