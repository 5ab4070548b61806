import { z } from 'zod';
import { API_BASE_PATH } from './site-paths.ts';

/**
 * Account deletion (PRODUCT.md "Delete account"; privacy policy 2025-10-15, 2.17, 8.2 and 11.5).
 * The user verifies with an SMS code to the bound phone, confirms, and the account enters a
 * cool-off of 15 days; logging in again or cancelling on the page ends it. After it, a job deletes
 * or anonymizes the account and keeps only what the law requires, for as long as it requires.
 */
export const ACCOUNT_DELETION_PATH = `${API_BASE_PATH}/account/deletion`;
export const ACCOUNT_DELETION_CODE_PATH = `${ACCOUNT_DELETION_PATH}/code`;
/** Whether a code is right, before the last confirmation (204), without using it. */
export const ACCOUNT_DELETION_CODE_CHECK_PATH = `${ACCOUNT_DELETION_CODE_PATH}/check`;
/** Demo mode only: the last code the demo SMS sender "sent" to the session's user. */
export const DEMO_LATEST_SMS_PATH = `${API_BASE_PATH}/demo/sms/latest`;

export const DELETION_COOL_OFF_DAYS = 15;
export const SMS_CODE_LENGTH = 6;
export const SMS_CODE_TTL_SECONDS = 5 * 60;
export const SMS_CODE_MAX_ATTEMPTS = 5;
/** How often a code may be sent, per user and per phone: once a minute, five times a day. */
export const SMS_RESEND_SECONDS = 60;
export const SMS_DAILY_LIMIT = 5;

export const smsCodeSchema = z.string().regex(/^\d{6}$/);

/**
 * What stops a deletion (privacy policy 11.5 item 2, which sets no other condition): an exposure
 * in review, an appeal not yet handled, an investigation of the account.
 */
export const deletionBlockerKindSchema = z.enum([
  'exposure_in_review',
  'appeal_open',
  'under_investigation',
]);
export type DeletionBlockerKind = z.infer<typeof deletionBlockerKindSchema>;

/**
 * The app screen that resolves each blocker (bridge `openAppRoute`): where the user withdraws the
 * exposure or the appeal, or reaches support.
 */
export const DELETION_BLOCKER_APP_ROUTES: Readonly<Record<DeletionBlockerKind, string>> = {
  exposure_in_review: 'exposures/mine',
  appeal_open: 'appeals/mine',
  under_investigation: 'support',
};

export const deletionBlockerSchema = z.object({
  kind: deletionBlockerKindSchema,
  /** The case as the user knows it, e.g. the exposure's title. */
  title: z.string(),
  since: z.iso.datetime({ offset: true }),
});
export type DeletionBlocker = z.infer<typeof deletionBlockerSchema>;

/**
 * What the law makes us keep after the deletion, and for how long (privacy policy 8.2 and 11.5).
 * One list: the server answers with it and its job keeps records for these periods.
 */
export const retainedKindSchema = z.enum([
  /** Goods and trade information, membership records: 3 years (E-Commerce Law art. 31). */
  'goods_and_transactions',
  /** Network logs and IP addresses: 6 months (Cybersecurity Law art. 21). */
  'network_logs',
  /** The deletion request itself: 6 months after it is completed. */
  'deletion_request',
  /** Reports and appeals: 6 months after they are handled; open ones until resolved. */
  'reports_and_appeals',
]);
export type RetainedKind = z.infer<typeof retainedKindSchema>;

export const RETENTION: readonly { kind: RetainedKind; months: number }[] = [
  { kind: 'goods_and_transactions', months: 36 },
  { kind: 'network_logs', months: 6 },
  { kind: 'deletion_request', months: 6 },
  { kind: 'reports_and_appeals', months: 6 },
];

export const deletionRequestSchema = z.object({
  requestedAt: z.iso.datetime({ offset: true }),
  /** When the cool-off ends and the job deletes the account. */
  deletesAt: z.iso.datetime({ offset: true }),
});
export type DeletionRequest = z.infer<typeof deletionRequestSchema>;

export const deletionOverviewSchema = z.object({
  /** The bound phone, masked as 138****0001; null when none is bound. */
  maskedPhone: z.string().nullable(),
  /** What will be deleted: the user's own content, counted. */
  content: z.object({
    goods: z.number().int().nonnegative(),
    cabinets: z.number().int().nonnegative(),
    notes: z.number().int().nonnegative(),
    comments: z.number().int().nonnegative(),
  }),
  /** What the user loses: their own figures; null where this server does not know one. */
  losses: z.object({
    points: z.number().int().nonnegative().nullable(),
    designs: z.number().int().nonnegative().nullable(),
    /** When the membership would have ended; null without an active one. */
    membershipUntil: z.iso.datetime({ offset: true }).nullable(),
    /**
     * An Apple subscription that will renew: deleting the account does not cancel it, so only
     * then the page warns to cancel it first.
     */
    renewingSubscription: z.boolean(),
  }),
  retained: z.array(z.object({ kind: retainedKindSchema, months: z.number().int().positive() })),
  blockers: z.array(deletionBlockerSchema),
  /** The pending request, during the cool-off. */
  request: deletionRequestSchema.nullable(),
  /**
   * The last request, when a log-in during its cool-off withdrew it (privacy policy 11.5), for as
   * long as that cool-off would have lasted: the page says so instead of staying silent.
   */
  cancelledByLogin: z.object({ at: z.iso.datetime({ offset: true }) }).nullable(),
  coolOffDays: z.literal(DELETION_COOL_OFF_DAYS),
});
export type DeletionOverview = z.infer<typeof deletionOverviewSchema>;

export const sendCodeResponseSchema = z.object({
  maskedPhone: z.string(),
  expiresAt: z.iso.datetime({ offset: true }),
  /** Seconds until another code may be asked for. */
  resendAfterSeconds: z.number().int().nonnegative(),
});
export type SendCodeResponse = z.infer<typeof sendCodeResponseSchema>;

export const confirmDeletionBodySchema = z
  .object({ code: smsCodeSchema, confirm: z.literal(true) })
  .strict();
export type ConfirmDeletionBody = z.infer<typeof confirmDeletionBodySchema>;

export const checkCodeBodySchema = z.object({ code: smsCodeSchema }).strict();
export type CheckCodeBody = z.infer<typeof checkCodeBodySchema>;

export const confirmDeletionResponseSchema = z.object({ request: deletionRequestSchema });

/** Error codes of these endpoints, besides 401 `unauthorized` and 400 `bad_request`. */
export const DELETION_ERROR_CODES = {
  /** 409, with `blockers`. */
  blocked: 'deletion_blocked',
  /** 409: a request is already pending; no code is needed. */
  pending: 'deletion_pending',
  /** 409: no phone is bound to the account. */
  noPhone: 'no_bound_phone',
  /** 429, with `retryAfterSeconds` and a Retry-After header. */
  rateLimited: 'sms_rate_limited',
  /** 502: the SMS provider refused or failed. */
  smsFailed: 'sms_failed',
  /** 400: no code was sent, or a newer one replaced it. */
  noCode: 'code_missing',
  /** 400, with `attemptsLeft`. */
  wrongCode: 'code_wrong',
  codeExpired: 'code_expired',
  codeUsed: 'code_used',
  /** 400: five wrong tries; ask for a new code. */
  tooManyAttempts: 'code_attempts_exceeded',
} as const;

export const deletionErrorSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    blockers: z.array(deletionBlockerSchema).optional(),
    retryAfterSeconds: z.number().int().nonnegative().optional(),
    attemptsLeft: z.number().int().nonnegative().optional(),
  }),
});
export type DeletionError = z.infer<typeof deletionErrorSchema>;

export const demoLatestSmsSchema = z.object({
  maskedPhone: z.string(),
  code: smsCodeSchema,
  sentAt: z.iso.datetime({ offset: true }),
});

/** 13800000001 → 138****0001 (privacy policy 10: only the first three and last four digits). */
export function maskPhone(phone: string): string {
  // The platform sends E.164 (+8613800000001): a mainland number is shown as people write it,
  // 138****0001; another shows its first three characters and last four, +44****3456.
  const mainland = /^\+86(1\d{10})$/.exec(phone)?.[1];
  if (mainland) return `${mainland.slice(0, 3)}****${mainland.slice(-4)}`;
  return phone.length >= 7 ? `${phone.slice(0, 3)}****${phone.slice(-4)}` : '****';
}
