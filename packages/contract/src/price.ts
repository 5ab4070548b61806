/**
 * Prices as the share pages and their pictures show them. Written out rather than left to Intl,
 * so the server (Node's ICU) and the phone's browser always produce the same text.
 */

/** ¥35.00 from 3500 fen; thousands grouped: ¥12,800.00. */
export function formatPrice(fen: number): string {
  const yuan = Math.floor(fen / 100);
  const cents = String(fen % 100).padStart(2, '0');
  return `¥${String(yuan).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${cents}`;
}
