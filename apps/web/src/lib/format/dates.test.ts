import { describe, expect, it } from 'vitest';
import { chinaDay, formatCalendarDate } from './dates';

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
    expect(formatCalendarDate('2025-10-15', 'en')).toBe('15 October 2025');
    expect(formatCalendarDate('not a date', 'en')).toBe('not a date');
  });
});
