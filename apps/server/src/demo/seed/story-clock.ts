const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The moment the demo data is dated from: the start of the current UTC day (when the process
 * started), so the demo's dates read as recent ("2 days ago", not a year ago beside "usually within
 * 3 working days") while every seed and every delivery of one day tells the same story.
 */
export function storyNowOf(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

export const STORY_NOW = storyNowOf(Date.now());

/** A moment of the demo's story, `days` (and `minutes` after that) before STORY_NOW. */
export function daysAgo(days: number, minutes = 0): string {
  return new Date(STORY_NOW - days * DAY_MS + minutes * 60_000).toISOString();
}
