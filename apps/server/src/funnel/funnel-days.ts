import { FUNNEL_UTC_OFFSET_HOURS } from '@guquan/contract/funnel-events';

/**
 * The funnel's days: `YYYY-MM-DD` in China Standard Time (UTC+8 all year), so a day on the
 * operators' page is the day the operators and most visitors live in.
 */
const OFFSET_MS = FUNNEL_UTC_OFFSET_HOURS * 3_600_000;
const DAY_MS = 86_400_000;

/** The funnel day an instant falls on. */
export function funnelDayOf(at: Date): string {
  return new Date(at.getTime() + OFFSET_MS).toISOString().slice(0, 10);
}

/** `day` moved by `days` (negative: earlier). */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Every day from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** How many days `from` to `to` span, both included. */
export function daySpan(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}
