import type { StoreProduct } from '@guquan/contract/bridge';

/**
 * The App Store products the simulator knows, with the localized prices StoreKit would give a
 * user in the China storefront. The membership plans (server seed) use the same ids; tests of
 * the membership page read the prices from here.
 */
export const SIMULATED_PRODUCTS: readonly StoreProduct[] = [
  {
    id: 'vip.monthly',
    displayName: '连续包月会员',
    displayPrice: '¥25.00',
    price: 25,
    currencyCode: 'CNY',
  },
  {
    id: 'vip.quarterly',
    displayName: '连续包季会员',
    displayPrice: '¥68.00',
    price: 68,
    currencyCode: 'CNY',
  },
  {
    id: 'vip.yearly',
    displayName: '连续包年会员',
    displayPrice: '¥238.00',
    price: 238,
    currencyCode: 'CNY',
  },
];

export function findSimulatedProduct(id: string): StoreProduct | undefined {
  return SIMULATED_PRODUCTS.find((product) => product.id === id);
}
