import { describe, expect, it } from 'vitest';
import { chinaDay, copyrightYears, formatCalendarDate } from './dates';

describe('chinaDay', () => {
  it('gives the day in China', () => {
    expect(chinaDay('2025-11-02T08:30:00.000Z')).toBe('2025-11-02');
    expect(chinaDay('2025-11-02T17:30:00.000Z')).toBe('2025-11-03');
    expect(chinaDay('2025-11-03T01:00:00+08:00')).toBe('2025-11-03');
  });
});

describe('formatCalendarDate', () => {
  it('writes a day as a reader of each language does, the same on server and browser', () => {
    expect(formatCalendarDate('2025-10-15', 'zh-CN')).toBe('2025年10月15日');
    // Issue 39: in the order an English (US) reader expects, as the in-app pages' Intl 'en' writes.
    expect(formatCalendarDate('2025-10-15', 'en')).toBe('October 15, 2025');
    expect(formatCalendarDate('2026-11-28', 'en')).toBe(
      new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date('2026-11-28T00:00:00Z'),
      ),
    );
    expect(formatCalendarDate('not a date', 'en')).toBe('not a date');
  });
});

describe('copyrightYears', () => {
  it('runs from the content file’s first year to the year of the clock, in China', () => {
    expect(copyrightYears(2025, new Date('2026-11-27T02:00:00Z'))).toBe('2025–2026');
    // New Year's Eve in UTC is already New Year's Day in China.
    expect(copyrightYears(2025, new Date('2026-12-31T17:00:00Z'))).toBe('2025–2027');
  });

  it('is the one year while it is still that year', () => {
    expect(copyrightYears(2026, new Date('2026-03-01T00:00:00Z'))).toBe('2026');
  });
});
