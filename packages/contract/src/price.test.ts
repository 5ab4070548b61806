import { describe, expect, it } from 'vitest';
import { formatPrice } from './price.ts';

describe('formatPrice', () => {
  it.each([
    [3500, '¥35.00'],
    [0, '¥0.00'],
    [5, '¥0.05'],
    [1999, '¥19.99'],
    [1_280_000, '¥12,800.00'],
    [123_456_789, '¥1,234,567.89'],
  ])('shows %i fen as %s', (fen, text) => {
    expect(formatPrice(fen)).toBe(text);
  });
});
