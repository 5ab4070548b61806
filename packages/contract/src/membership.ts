import { z } from 'zod';
import { signedTransactionSchema } from './bridge.ts';
import { API_BASE_PATH } from './site-paths.ts';

export const MEMBERSHIP_PATH = `${API_BASE_PATH}/membership`;
export const MEMBERSHIP_TRANSACTIONS_PATH = `${MEMBERSHIP_PATH}/transactions`;
export const MEMBERSHIP_RESTORE_PATH = `${MEMBERSHIP_PATH}/restore`;
/** The App Store's server notifications (signed, no session). */
export const APP_STORE_NOTIFICATIONS_PATH = `${API_BASE_PATH}/app-store/notifications`;
/** Demo mode only: the simulated App Store signs a transaction. */
export const DEMO_STOREKIT_TRANSACTIONS_PATH = `${API_BASE_PATH}/demo/storekit/transactions`;

/**
 * iOS membership (PRODUCT.md "Membership centre (iOS)"): plans are App Store auto-renewable
 * subscriptions; the page buys through the bridge and the server verifies the signed transaction
 * before it grants anything. Every endpoint here needs the user's session except the App Store's
 * own notifications.
 */

/** App Store product ids look like reverse-DNS words: `vip.monthly`. */
export const productIdSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._-]+$/);

export const PLAN_PERIODS = ['month', 'quarter', 'year'] as const;
export const planPeriodSchema = z.enum(PLAN_PERIODS);
export type PlanPeriod = z.infer<typeof planPeriodSchema>;

export const planSchema = z.object({
  productId: productIdSchema,
  titles: z.object({ 'zh-CN': z.string(), en: z.string() }),
  period: planPeriodSchema,
  /** The server's price in fen: shown only when the App Store's own localized price is missing. */
  fallbackPriceFen: z.number().int().nonnegative(),
  /** The plan's level in the App Store subscription group, as App Store Connect ranks it: 1 is the highest. */
  level: z.number().int().positive(),
});
export type Plan = z.infer<typeof planSchema>;

/**
 * What a change from one plan of the subscription group to another is, as the App Store defines
 * it: to a higher level an upgrade, which starts at once (the rest of the old plan is refunded
 * pro rata); to a lower level a downgrade, which starts at the next renewal; at the same level a
 * crossgrade, at once when both last as long, else at the next renewal. Never a second purchase:
 * the subscription stays one (same original transaction).
 */
export interface PlanChange {
  kind: 'upgrade' | 'downgrade' | 'crossgrade';
  startsAt: 'now' | 'renewal';
}

export function planChange(
  from: Pick<Plan, 'level' | 'period'>,
  to: Pick<Plan, 'level' | 'period'>,
): PlanChange {
  if (to.level < from.level) return { kind: 'upgrade', startsAt: 'now' };
  if (to.level > from.level) return { kind: 'downgrade', startsAt: 'renewal' };
  return { kind: 'crossgrade', startsAt: to.period === from.period ? 'now' : 'renewal' };
}

export const MEMBERSHIP_STATUSES = ['active', 'expired', 'none'] as const;

export const membershipSchema = z.object({
  status: z.enum(MEMBERSHIP_STATUSES),
  /** When the paid time ends (or ended); null when the user never was a member. */
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  productId: productIdSchema.nullable(),
  /** Whether the App Store will renew at expiry; null when unknown. */
  autoRenew: z.boolean().nullable(),
  /**
   * The plan the next renewal bills, when it is known: another plan than `productId` while a
   * downgrade (or a crossgrade to another period) waits for the renewal date.
   */
  renewalProductId: productIdSchema.nullable(),
});
export type Membership = z.infer<typeof membershipSchema>;

export const membershipResponseSchema = z.object({
  membership: membershipSchema,
  plans: z.array(planSchema),
  /** The UUID the page passes to StoreKit, which ties a purchase to this user. */
  appAccountToken: z.uuid(),
});
export type MembershipResponse = z.infer<typeof membershipResponseSchema>;

export const submitTransactionRequestSchema = z
  .object({
    signedTransaction: signedTransactionSchema,
    /** The subscription's renewal info after the purchase (which plan renews), when the app has it. */
    signedRenewalInfo: signedTransactionSchema.optional(),
  })
  .strict();
export type SubmitTransactionRequest = z.infer<typeof submitTransactionRequestSchema>;

export const submitTransactionResponseSchema = z.object({
  membership: membershipSchema,
  /** The transaction the server now holds: the page tells the app to finish this one. */
  transactionId: z.string().min(1).max(64),
});
export type SubmitTransactionResponse = z.infer<typeof submitTransactionResponseSchema>;

/** AppStore.sync() returns the current entitlements: a handful, never hundreds. */
export const MAX_RESTORED_TRANSACTIONS = 50;

export const restoreRequestSchema = z
  .object({
    signedTransactions: z.array(signedTransactionSchema).max(MAX_RESTORED_TRANSACTIONS),
  })
  .strict();
export type RestoreRequest = z.infer<typeof restoreRequestSchema>;

export const restoreResponseSchema = z.object({
  membership: membershipSchema,
  /** The transactions the server holds now (new or already known). */
  accepted: z.array(z.string()),
  /** The others, by their position in the request, with the reason. */
  rejected: z.array(z.object({ index: z.number().int(), code: z.string() })),
});
export type RestoreResponse = z.infer<typeof restoreResponseSchema>;

/**
 * Why a signed transaction is refused (HTTP 400, `wrong_account` 403). Each is final: sending
 * the same transaction again gets the same answer.
 */
export const TRANSACTION_ERROR_CODES = [
  /** Not a valid App Store signature, chain or payload. */
  'invalid_transaction',
  /** Signed for another app. */
  'wrong_bundle',
  /** Sandbox on a production server, or the other way round. */
  'wrong_environment',
  /** Bought with another user's app account token (or already granted to another user). */
  'wrong_account',
  /** Refunded or revoked by the App Store. */
  'revoked',
  /** Not one of our membership plans. */
  'unknown_product',
  /**
   * A second subscription of the group (another original transaction) bought while the first is
   * still active: it does not extend the membership (409). A plan change keeps the original.
   */
  'already_subscribed',
] as const;
export type TransactionErrorCode = (typeof TRANSACTION_ERROR_CODES)[number];

/** App Store Server Notifications V2: the App Store POSTs `{ signedPayload }`. */
export const appStoreNotificationRequestSchema = z.object({
  signedPayload: z
    .string()
    .min(1)
    .max(60_000)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/),
});

/** The simulator's stand-in for the App Store (demo mode only). */
export const demoStoreKitRequestSchema = z
  .object({ productId: productIdSchema, appAccountToken: z.uuid() })
  .strict();
export const demoStoreKitResponseSchema = z.object({
  signedTransaction: signedTransactionSchema,
  transactionId: z.string(),
  /** The subscription's renewal info after this purchase. */
  signedRenewalInfo: signedTransactionSchema,
  /**
   * What the App Store did: a new subscription, a plan change that starts now (a new transaction
   * of the same subscription), one that waits for the renewal (the current transaction, with the
   * new plan in the renewal info), or nothing (the plan the user has).
   */
  change: z.enum(['new', 'now', 'renewal', 'unchanged']),
});
