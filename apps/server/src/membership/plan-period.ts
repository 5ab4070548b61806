import type { PlanPeriod } from '@guquan/contract/membership';

const MONTHS: Record<PlanPeriod, number> = { month: 1, quarter: 3, year: 12 };

/** The end of one period that starts at `start` (calendar months, as the App Store bills). */
export function periodEnd(start: number, period: PlanPeriod): number {
  const end = new Date(start);
  end.setUTCMonth(end.getUTCMonth() + MONTHS[period]);
  return end.getTime();
}
