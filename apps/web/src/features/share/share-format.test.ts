import { describe, expect, it } from 'vitest';
import { formatCount } from './share-format';

describe('formatCount', () => {
  it.each([
    [0, '0', '0'],
    [999, '999', '999'],
    [1_000, '1000', '1k'],
    [1_250, '1250', '1.2k'],
    [9_999, '9999', '9.9k'],
    [10_000, '1万', '10k'],
    [12_345, '1.2万', '12.3k'],
    [2_500_000, '250万', '2.5M'],
    [123_000_000, '1.2亿', '123M'],
  ])('shows %i as %s in Chinese and %s in English', (count, zh, en) => {
    expect(formatCount(count, 'zh-CN')).toBe(zh);
    expect(formatCount(count, 'en')).toBe(en);
  });
});
