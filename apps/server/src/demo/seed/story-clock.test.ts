import { describe, expect, it } from 'vitest';
import { daysAgo, STORY_NOW, storyNowOf } from './story-clock.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the demo story clock', () => {
  it('dates the story from the start of the current UTC day', () => {
    expect(new Date(storyNowOf(Date.parse('2026-11-27T02:20:10.000Z'))).toISOString()).toBe(
      '2026-11-27T00:00:00.000Z',
    );
    expect(STORY_NOW).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - STORY_NOW).toBeLessThan(DAY_MS);
  });

  it('puts "2 days ago" within three days of now, never a year back', () => {
    const since = Date.parse(daysAgo(2));
    expect(Date.now() - since).toBeGreaterThanOrEqual(2 * DAY_MS);
    expect(Date.now() - since).toBeLessThan(3 * DAY_MS);
  });
});
