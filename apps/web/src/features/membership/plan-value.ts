import type { StoreProduct } from '@guquan/contract/bridge';
import type { Language } from '@guquan/contract/language';
import type { Plan, PlanPeriod } from '@guquan/contract/membership';

/** How many months each period pays for. */
export const MONTHS_IN: Readonly<Record<PlanPeriod, number>> = { month: 1, quarter: 3, year: 12 };

/** What a plan costs, as a number in a currency: the one its shown price says. */
interface Amount {
  value: number;
  currency: string;
}

/** What the page says of a plan's value beside its price. */
export interface PlanValue {
  /** The price per month, for plans longer than a month whose amount is known. */
  perMonth: string | undefined;
  /** The plan that costs least per month, when every plan can be compared. */
  bestValue: boolean;
}

/**
 * The amount behind the price the page shows (plan-labels.ts `priceOf`): the App Store's, when
 * it sent the number and currency with its text; the server's fallback in fen when the App Store
 * gave no price; unknown when the App Store gave only its text (never mixed with the server's).
 */
function amountOf(plan: Plan, products: ReadonlyMap<string, StoreProduct>): Amount | undefined {
  const product = products.get(plan.productId);
  if (!product || product.displayPrice.trim() === '') {
    return { value: plan.fallbackPriceFen / 100, currency: 'CNY' };
  }
  if (product.price === undefined || product.currencyCode === undefined) return undefined;
  return { value: product.price, currency: product.currencyCode };
}

function formatMoney({ value, currency }: Amount, language: Language): string {
  try {
    return new Intl.NumberFormat(language, {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
    }).format(value);
  } catch {
    return `${currency} ${value.toFixed(2)}`;
  }
}

/**
 * Each plan's price per month and which plan is the best value, worked out from the prices the
 * page shows. "Best value" goes to the one plan that costs strictly least per month, and only
 * when there are two plans or more and all of them are priced in one currency; otherwise no plan
 * is marked.
 */
export function planValues(
  plans: readonly Plan[],
  products: ReadonlyMap<string, StoreProduct>,
  language: Language,
): Map<string, PlanValue> {
  const monthly = plans.map((plan) => {
    const amount = amountOf(plan, products);
    const perMonth = amount && { ...amount, value: amount.value / MONTHS_IN[plan.period] };
    return { plan, perMonth };
  });
  const known = monthly.flatMap(({ plan, perMonth }) => (perMonth ? [{ plan, perMonth }] : []));
  const comparable =
    plans.length >= 2 &&
    known.length === plans.length &&
    new Set(known.map(({ perMonth }) => perMonth.currency)).size === 1;
  const cheapest = comparable ? Math.min(...known.map(({ perMonth }) => perMonth.value)) : NaN;
  const atCheapest = known.filter(({ perMonth }) => perMonth.value === cheapest);
  const best = atCheapest.length === 1 ? atCheapest[0]?.plan.productId : undefined;

  return new Map(
    monthly.map(({ plan, perMonth }) => [
      plan.productId,
      {
        perMonth:
          perMonth && MONTHS_IN[plan.period] > 1 ? formatMoney(perMonth, language) : undefined,
        bestValue: plan.productId === best,
      },
    ]),
  );
}
