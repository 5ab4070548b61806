import { describe, expect, it } from 'vitest';
import { pluralText } from '../i18n/plural';
import { formatCount, withThousandsSeparators } from './counts';

describe('formatCount', () => {
  it.each([
    [0, '0', '0'],
    [1, '1', '1'],
    [999, '999', '999'],
    [1_000, '1000', '1,000'],
    [1_024, '1024', '1,024'],
    [9_999, '9999', '9,999'],
    [10_000, '1万', '10k'],
    [12_345, '1.2万', '12.3k'],
    [999_999, '99.9万', '999.9k'],
    [2_500_000, '250万', '2.5M'],
    [123_000_000, '1.2亿', '123M'],
  ])('shows %i as %s in Chinese and %s in English', (count, zh, en) => {
    expect(formatCount(count, 'zh-CN')).toBe(zh);
    expect(formatCount(count, 'en')).toBe(en);
  });

  it('turns compact in English exactly where Chinese says 万, never before', () => {
    for (const count of [1_000, 5_000, 9_999]) {
      expect(formatCount(count, 'zh-CN')).not.toMatch(/万|亿/);
      expect(formatCount(count, 'en')).not.toMatch(/[kM]$/);
    }
    for (const count of [10_000, 54_321, 99_999_999]) {
      expect(formatCount(count, 'zh-CN')).toMatch(/万$/);
      expect(formatCount(count, 'en')).toMatch(/[kM]$/);
    }
  });

  it('reads "1,024 likes" and "1 like" with the plural of the count itself', () => {
    const likes = { one: '{n} like', other: '{n} likes' };
    expect(pluralText('en', 1_024, likes, formatCount(1_024, 'en'))).toBe('1,024 likes');
    expect(pluralText('en', 1, likes, formatCount(1, 'en'))).toBe('1 like');
    expect(pluralText('en', 12_345, likes, formatCount(12_345, 'en'))).toBe('12.3k likes');
  });
});

describe('withThousandsSeparators', () => {
  it.each([
    [0, '0'],
    [12, '12'],
    [123, '123'],
    [1_234, '1,234'],
    [12_345_678, '12,345,678'],
  ])('writes %i as %s', (count, written) => {
    expect(withThousandsSeparators(count)).toBe(written);
  });
});
