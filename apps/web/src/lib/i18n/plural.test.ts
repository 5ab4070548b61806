import { describe, expect, it } from 'vitest';
import { pluralText } from './plural';

const ITEMS = { one: '{n} item', other: '{n} items' };

describe('pluralText', () => {
  it('picks the English form by the count', () => {
    expect(pluralText('en', 0, ITEMS)).toBe('0 items');
    expect(pluralText('en', 1, ITEMS)).toBe('1 item');
    expect(pluralText('en', 2, ITEMS)).toBe('2 items');
    expect(pluralText('en', 21, ITEMS)).toBe('21 items');
  });

  it('writes the count as the page shows it', () => {
    expect(pluralText('en', 1200, { one: '{n} like', other: '{n} likes' }, '1.2k')).toBe(
      '1.2k likes',
    );
  });

  it('has one form in Chinese, whatever the count', () => {
    expect(pluralText('zh-CN', 1, { other: '共 {n} 件谷子' })).toBe('共 1 件谷子');
    expect(pluralText('zh-CN', 3, { other: '共 {n} 件谷子' })).toBe('共 3 件谷子');
  });

  it('falls back to the other form when a language has no text for a category', () => {
    expect(pluralText('en', 1, { other: '{n} sheep' })).toBe('1 sheep');
  });
});
