import type { StoreProduct } from '@guquan/contract/bridge';
import type { Language } from '@guquan/contract/language';
import type { Plan } from '@guquan/contract/membership';
import { formatFen, type MembershipTexts } from './membership-texts';

/** The App Store's own localized price, or the server's when the App Store gave none. */
export function priceOf(plan: Plan, products: ReadonlyMap<string, StoreProduct>): string {
  const price = products.get(plan.productId)?.displayPrice;
  return price && price.trim() !== '' ? price : formatFen(plan.fallbackPriceFen);
}

/** "¥25.00/月": the price and what it pays for. */
export function pricePerPeriod(
  plan: Plan,
  products: ReadonlyMap<string, StoreProduct>,
  text: MembershipTexts,
): string {
  return `${priceOf(plan, products)}${text.perPeriod[plan.period]}`;
}

/**
 * The plan's name in the page's language. StoreKit's displayName follows the App Store's
 * storefront, not the page: a Chinese name on the English page.
 */
export function titleOf(plan: Plan, language: Language): string {
  return plan.titles[language];
}
