import { z } from 'zod';

/**
 * A purchase StoreKit answered `pending` (Ask to Buy, or a payment to confirm): the approval
 * comes later as the app's `transactionUpdated` event, and nothing else tells the page. It is
 * kept for this tab (a reload, a visit to the agreement) so the page keeps saying so and offers
 * no second purchase meanwhile. Nothing leaves the device; it is forgotten once a membership is
 * active, and after a day, when Apple lets an unanswered Ask to Buy request lapse (a declined
 * one is never reported to the app). The day is Apple's: an Ask to Buy request has a 24-hour
 * period, and asking again consolidates into it and only restarts the timer (Apple's answer in
 * its developer forums, https://developer.apple.com/forums/thread/706277).
 */
export const AWAITING_APPROVAL_KEY = 'guquan.membership.awaiting-approval';
export const AWAITING_APPROVAL_MS = 24 * 60 * 60 * 1000;

const awaitingSchema = z.object({
  productId: z.string().max(100),
  /** When StoreKit answered `pending`, in milliseconds since 1970. */
  since: z.number().int().nonnegative(),
});
export type AwaitingApproval = z.infer<typeof awaitingSchema>;

function storage(): Storage | undefined {
  try {
    return typeof sessionStorage === 'undefined' ? undefined : sessionStorage;
  } catch {
    return undefined; // storage refused (a private mode, a sandboxed web view)
  }
}

export function readAwaitingApproval(now = Date.now()): AwaitingApproval | undefined {
  try {
    const parsed = awaitingSchema.safeParse(
      JSON.parse(storage()?.getItem(AWAITING_APPROVAL_KEY) ?? 'null'),
    );
    if (!parsed.success) return undefined;
    const age = now - parsed.data.since;
    return age >= 0 && age < AWAITING_APPROVAL_MS ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** StoreKit answered `pending` for this plan, now: kept, and returned. */
export function startAwaitingApproval(productId: string, now = Date.now()): AwaitingApproval {
  const awaiting = { productId, since: now };
  try {
    storage()?.setItem(AWAITING_APPROVAL_KEY, JSON.stringify(awaiting));
  } catch {
    // Full or refused: the page then knows only until it is left.
  }
  return awaiting;
}

export function forgetAwaitingApproval(): void {
  try {
    storage()?.removeItem(AWAITING_APPROVAL_KEY);
  } catch {
    // nothing kept
  }
}
