/** The moment the demo data is dated from, so every seed tells the same story. */
export const STORY_NOW = Date.parse('2025-11-20T12:00:00.000Z');
const DAY_MS = 24 * 60 * 60 * 1000;

/** A moment of the demo's story, `days` (and `minutes` after that) before STORY_NOW. */
export function daysAgo(days: number, minutes = 0): string {
  return new Date(STORY_NOW - days * DAY_MS + minutes * 60_000).toISOString();
}
