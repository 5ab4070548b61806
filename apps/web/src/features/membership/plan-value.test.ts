import { describe, expect, it } from 'vitest';
import type { StoreProduct } from '@guquan/contract/bridge';
import type { Plan } from '@guquan/contract/membership';
import { planValues } from './plan-value';

const plan = (productId: string, period: Plan['period'], fallbackPriceFen: number): Plan => ({
  productId,
  titles: { 'zh-CN': productId, en: productId },
  period,
  fallbackPriceFen,
  level: 1,
});
const MONTHLY = plan('vip.monthly', 'month', 2500);
const QUARTERLY = plan('vip.quarterly', 'quarter', 6800);
const YEARLY = plan('vip.yearly', 'year', 23800);
const PLANS = [MONTHLY, QUARTERLY, YEARLY];

const product = (id: string, displayPrice: string, price?: number, currencyCode?: string) =>
  [id, { id, displayName: '', displayPrice, price, currencyCode }] as const;
const products = (...entries: (readonly [string, StoreProduct])[]) => new Map(entries);

describe('planValues', () => {
  it('gives the App Store prices per month and marks the cheapest per month "best value"', () => {
    const values = planValues(
      PLANS,
      products(
        product('vip.monthly', '¥25.00', 25, 'CNY'),
        product('vip.quarterly', '¥68.00', 68, 'CNY'),
        product('vip.yearly', '¥238.00', 238, 'CNY'),
      ),
      'zh-CN',
    );
    expect(values.get('vip.monthly')).toEqual({ perMonth: undefined, bestValue: false });
    expect(values.get('vip.quarterly')).toEqual({ perMonth: '¥22.67', bestValue: false });
    expect(values.get('vip.yearly')).toEqual({ perMonth: '¥19.83', bestValue: true });
  });

  it('follows the prices, not the period: a dear yearly plan is not the best value', () => {
    const values = planValues(
      PLANS,
      products(
        product('vip.monthly', '$2.99', 2.99, 'USD'),
        product('vip.quarterly', '$6.99', 6.99, 'USD'),
        product('vip.yearly', '$39.99', 39.99, 'USD'),
      ),
      'en',
    );
    expect(values.get('vip.quarterly')).toEqual({ perMonth: '$2.33', bestValue: true });
    expect(values.get('vip.yearly')).toEqual({ perMonth: '$3.33', bestValue: false });
  });

  it('uses the server’s prices when the App Store gave none', () => {
    const values = planValues(PLANS, products(), 'en');
    expect(values.get('vip.yearly')).toEqual({ perMonth: '¥19.83', bestValue: true });
  });

  it('marks nothing when the plans cannot be compared, or tie, or stand alone', () => {
    // The App Store's text without its number: that plan's amount is unknown.
    const textOnly = planValues(PLANS, products(product('vip.yearly', '¥238.00')), 'en');
    expect(textOnly.get('vip.yearly')).toEqual({ perMonth: undefined, bestValue: false });
    expect([...textOnly.values()].some((value) => value.bestValue)).toBe(false);
    // Two currencies (the App Store's dollars beside the server's yuan) are never compared.
    const mixed = planValues(PLANS, products(product('vip.yearly', '$39.99', 39.99, 'USD')), 'en');
    expect([...mixed.values()].some((value) => value.bestValue)).toBe(false);
    expect(mixed.get('vip.yearly')?.perMonth).toBe('$3.33');
    const tie = planValues([MONTHLY, plan('vip.quarterly', 'quarter', 7500)], products(), 'en');
    expect([...tie.values()].some((value) => value.bestValue)).toBe(false);
    const alone = planValues([YEARLY], products(), 'en');
    expect(alone.get('vip.yearly')).toEqual({ perMonth: '¥19.83', bestValue: false });
  });
});
