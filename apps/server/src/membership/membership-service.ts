import type {
  JWSRenewalInfoDecodedPayload,
  JWSTransactionDecodedPayload,
} from '@apple/app-store-server-library';
import type {
  Membership,
  MembershipResponse,
  RestoreResponse,
  TransactionErrorCode,
} from '@guquan/contract/membership';
import type { AuthUser } from '../auth/user-authenticator.ts';
import type { Db } from '../db/database.ts';
import { AppStoreVerificationError, type AppStoreVerifier } from './app-store-verifier.ts';
import {
  appAccountToken,
  changingMembership,
  findPlan,
  findTransaction,
  insertTransaction,
  isDeletedUser,
  listPlans,
  overlapsOtherSubscription,
  readMembership,
  recompute,
  recordNotification,
  setRenewal,
  setRevoked,
  userIdForOriginal,
  userIdForToken,
  type TransactionRow,
  type Trx,
} from './membership-repository.ts';

/** A signed transaction the server will not grant: the code says why (contract TRANSACTION_ERROR_CODES). */
export class TransactionRejected extends Error {
  override name = 'TransactionRejected';
  constructor(
    readonly code: TransactionErrorCode | 'verification_unavailable',
    readonly status: number,
  ) {
    super(code);
  }
}

export class NotificationRejected extends Error {
  override name = 'NotificationRejected';
  /** True when the failure may pass (Apple's OCSP unreachable): Apple should send it again. */
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

const SUBSCRIPTION_TYPE = 'Auto-Renewable Subscription';

const iso = (ms: number) => new Date(ms).toISOString();

/** The largest distance from the epoch a JavaScript date can hold (ECMA-262 21.4.1.1). */
const MAX_DATE_MS = 8.64e15;

/** A signed date we can mean: a number of milliseconds a date can hold, or absent if optional. */
function isDateMs(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value) && Math.abs(value) <= MAX_DATE_MS;
}

const REJECTION_STATUS: Partial<Record<TransactionErrorCode, number>> = {
  wrong_account: 403,
  already_subscribed: 409,
};

function rejected(code: TransactionErrorCode): TransactionRejected {
  return new TransactionRejected(code, REJECTION_STATUS[code] ?? 400);
}

function fromVerification(error: unknown): TransactionRejected {
  if (error instanceof AppStoreVerificationError) {
    return error.retry
      ? new TransactionRejected('verification_unavailable', 503)
      : rejected(error.code);
  }
  throw error;
}

/**
 * The fields a membership needs, from a transaction the verifier accepted; a payload without
 * them is not a subscription transaction of ours.
 */
async function readTransaction(
  db: Db | Trx,
  decoded: JWSTransactionDecodedPayload,
  userId: number,
): Promise<TransactionRow> {
  const { transactionId, originalTransactionId, productId, purchaseDate, expiresDate } = decoded;
  if (
    !transactionId ||
    transactionId.length > 64 ||
    !originalTransactionId ||
    originalTransactionId.length > 64 ||
    !productId ||
    // Signed, but past what a date can hold: refused, never a RangeError (a 500).
    !isDateMs(purchaseDate) ||
    !isDateMs(expiresDate) ||
    !isDateMs(decoded.signedDate) ||
    (decoded.revocationDate !== undefined && !isDateMs(decoded.revocationDate)) ||
    expiresDate <= purchaseDate
  ) {
    throw rejected('invalid_transaction');
  }
  if (decoded.type !== SUBSCRIPTION_TYPE || !(await findPlan(db, productId))) {
    throw rejected('unknown_product');
  }
  return {
    transactionId,
    originalTransactionId,
    userId,
    productId,
    purchaseDate: iso(purchaseDate),
    expiresDate: iso(expiresDate),
    revokedAt: decoded.revocationDate === undefined ? null : iso(decoded.revocationDate),
    environment: String(decoded.environment),
  };
}

/** The plan a subscription renews to, and whether it renews, from its signed renewal info. */
function renewalOf(decoded: JWSRenewalInfoDecodedPayload, originalTransactionId: string) {
  const productId = decoded.autoRenewProductId;
  return {
    originalTransactionId,
    productId: productId && productId.length <= 100 ? productId : null,
    autoRenew: decoded.autoRenewStatus === undefined ? null : decoded.autoRenewStatus === 1,
  };
}

export interface MembershipServiceOptions {
  db: Db;
  verifier: AppStoreVerifier;
  now?: () => Date;
}

export type NotificationOutcome =
  'processed' | 'duplicate' | 'ignored' | 'unmatched' | 'account_deleted';

/** Notification types that change a membership; the App Store's others are acknowledged. */
const HANDLED = new Set([
  'SUBSCRIBED',
  'DID_RENEW',
  'DID_CHANGE_RENEWAL_PREF',
  'EXPIRED',
  'DID_CHANGE_RENEWAL_STATUS',
  'REFUND',
  'REVOKE',
  'REFUND_REVERSED',
]);

/**
 * What a notification makes of its transaction's revocation: a refund or revocation sets it (at
 * the date signed, else now), a reversed refund clears it, the others keep what the server has
 * (a transaction new to it: as signed, except that a purchase or renewal counts).
 */
function revocationAfter(
  type: string,
  row: TransactionRow,
  known: TransactionRow | undefined,
  now: Date,
): string | null {
  switch (type) {
    case 'REFUND':
    case 'REVOKE':
      return row.revokedAt ?? now.toISOString();
    case 'REFUND_REVERSED':
      return null;
    case 'SUBSCRIBED':
    case 'DID_RENEW':
    case 'DID_CHANGE_RENEWAL_PREF':
      return known ? known.revokedAt : null;
    default:
      return known ? known.revokedAt : row.revokedAt;
  }
}

/** The renewal status a notification says (undefined: it says nothing, what is known stays). */
function autoRenewAfter(
  type: string,
  subtype: string | null,
  signed: boolean | undefined,
): boolean | undefined {
  switch (type) {
    case 'SUBSCRIBED':
    case 'DID_RENEW':
      return signed ?? true;
    case 'EXPIRED':
      return false;
    case 'DID_CHANGE_RENEWAL_STATUS':
      return subtype === 'AUTO_RENEW_DISABLED'
        ? false
        : subtype === 'AUTO_RENEW_ENABLED'
          ? true
          : signed;
    default:
      return undefined;
  }
}

/**
 * Memberships from App Store transactions. A transaction counts once: its id is unique, and the
 * row, the membership and (for notifications) the notification log change in one database
 * transaction, so a crash half-way leaves nothing done.
 */
export function membershipService({
  db,
  verifier,
  now = () => new Date(),
}: MembershipServiceOptions) {
  const verifyTransaction = async (signed: string) => {
    try {
      return await verifier.transaction(signed);
    } catch (error) {
      throw fromVerification(error);
    }
  };

  /** The renewal info the app sent with a purchase: which plan the subscription renews to. */
  const verifyRenewal = async (signed: string | undefined, originalTransactionId: string) => {
    if (signed === undefined) return undefined;
    let decoded;
    try {
      decoded = await verifier.renewalInfo(signed);
    } catch (error) {
      throw fromVerification(error);
    }
    // Renewal info of another subscription than the transaction's says nothing about this one.
    if (decoded.originalTransactionId !== originalTransactionId) {
      throw rejected('invalid_transaction');
    }
    return renewalOf(decoded, originalTransactionId);
  };

  /**
   * Grants one signed transaction to the user it was bought for. `purchase`: a new purchase
   * (its subscription renews); restore leaves the renewal status as known. A transaction whose
   * period overlaps one of another subscription of the group that the user was granted is
   * refused, whichever was bought or arrived first: it would add time for what the App Store
   * treats as a plan change (or a second Apple ID's purchase), never as time to add.
   */
  const grant = async (
    user: AuthUser,
    signed: string,
    purchase: boolean,
    signedRenewal?: string,
  ): Promise<{ membership: Membership; transactionId: string }> => {
    const decoded = await verifyTransaction(signed);
    const token = await appAccountToken(db, user.id, now());
    if (decoded.appAccountToken?.toLowerCase() !== token) throw rejected('wrong_account');
    const row = await readTransaction(db, decoded, user.id);
    const renewal = await verifyRenewal(signedRenewal, row.originalTransactionId);
    const moment = now();

    const outcome = await db.transaction().execute((trx) =>
      // One change to the user's subscriptions at a time, whichever server has it: the overlap
      // check sees every grant committed before, and no other begins until this one ends
      // (docs/decisions/0009-postgresql-concurrency.md). The platform hears of what changed.
      changingMembership(trx, user.id, moment, async () => {
        const known = await findTransaction(trx, row.transactionId);
        if (known && known.userId !== user.id) return 'wrong_account' as const;
        if (row.revokedAt !== null) {
          if (known && known.revokedAt === null) {
            await setRevoked(trx, row.transactionId, row.revokedAt);
            await recompute(trx, user.id, moment);
          }
          return 'revoked' as const;
        }
        // Known already: a replay (a retry, the unfinished queue, a restore, a downgrade that
        // returns the current transaction) grants nothing again.
        if (!known) {
          if (await overlapsOtherSubscription(trx, row)) return 'already_subscribed' as const;
          if (await insertTransaction(trx, row, moment)) {
            await recompute(trx, user.id, moment, purchase ? true : undefined);
          }
        }
        if (renewal) await setRenewal(trx, user.id, renewal, moment);
        return 'granted' as const;
      }),
    );
    if (outcome !== 'granted') throw rejected(outcome);
    return {
      membership: await readMembership(db, user.id, now()),
      transactionId: row.transactionId,
    };
  };

  return {
    async overview(user: AuthUser): Promise<MembershipResponse> {
      return {
        membership: await readMembership(db, user.id, now()),
        plans: await listPlans(db),
        appAccountToken: await appAccountToken(db, user.id, now()),
      };
    },

    submit: (user: AuthUser, signed: string, signedRenewal?: string) =>
      grant(user, signed, true, signedRenewal),

    async restore(user: AuthUser, signedTransactions: string[]): Promise<RestoreResponse> {
      const accepted: string[] = [];
      const refused: RestoreResponse['rejected'] = [];
      for (const [index, signed] of signedTransactions.entries()) {
        try {
          accepted.push((await grant(user, signed, false)).transactionId);
        } catch (error) {
          if (!(error instanceof TransactionRejected)) throw error;
          refused.push({ index, code: error.code });
        }
      }
      return { membership: await readMembership(db, user.id, now()), accepted, rejected: refused };
    },

    /** An App Store Server Notification V2; throws NotificationRejected when it does not verify. */
    async notification(signedPayload: string): Promise<NotificationOutcome> {
      let payload;
      let decoded: JWSTransactionDecodedPayload | undefined;
      let autoRenew: boolean | undefined;
      let renewalInfo: JWSRenewalInfoDecodedPayload | undefined;
      try {
        payload = await verifier.notification(signedPayload);
        const data = payload.data;
        if (data?.signedTransactionInfo) {
          decoded = await verifier.transaction(data.signedTransactionInfo);
        }
        if (data?.signedRenewalInfo) {
          renewalInfo = await verifier.renewalInfo(data.signedRenewalInfo);
          if (renewalInfo.autoRenewStatus !== undefined) {
            autoRenew = renewalInfo.autoRenewStatus === 1;
          }
        }
      } catch (error) {
        if (error instanceof AppStoreVerificationError) {
          throw new NotificationRejected(error.code, error.retry);
        }
        throw error;
      }
      const uuid = payload.notificationUUID;
      const type = payload.notificationType;
      if (!uuid || uuid.length > 64 || !type)
        throw new NotificationRejected('invalid_notification');
      const subtype = payload.subtype ?? null;
      const moment = now();

      return db.transaction().execute(async (trx): Promise<NotificationOutcome> => {
        if (!(await recordNotification(trx, { uuid, type, subtype }, moment))) return 'duplicate';
        if (!HANDLED.has(type) || !decoded) return 'ignored';
        let row: TransactionRow;
        try {
          row = await readTransaction(trx, decoded, 0);
        } catch (error) {
          if (error instanceof TransactionRejected) return 'ignored';
          throw error;
        }
        const userId =
          (await userIdForOriginal(trx, row.originalTransactionId)) ??
          (decoded.appAccountToken
            ? await userIdForToken(trx, decoded.appAccountToken)
            : undefined);
        if (userId === undefined) return 'unmatched';
        // Deleting an account does not cancel its Apple subscription, so renewals and the like
        // keep coming: acknowledged, and nothing comes back to the anonymised account.
        if (await isDeletedUser(trx, userId)) return 'account_deleted';
        // One change to the user's subscriptions at a time (see grant).
        return changingMembership(trx, userId, moment, async (): Promise<NotificationOutcome> => {
          const known = await findTransaction(trx, row.transactionId);
          if (known && known.userId !== userId) return 'unmatched';
          const revokedAt = revocationAfter(type, row, known, moment);
          // A transaction that begins to count (new, or a refund reversed) must not cover a moment
          // another subscription of the group already covers: it extends nothing.
          const beginsToCount = revokedAt === null && (!known || known.revokedAt !== null);
          if (beginsToCount && (await overlapsOtherSubscription(trx, { ...row, userId }))) {
            return 'ignored';
          }
          if (!known) {
            await insertTransaction(trx, { ...row, userId, revokedAt }, moment);
          } else if (known.revokedAt !== revokedAt) {
            await setRevoked(trx, row.transactionId, revokedAt);
          }
          await recompute(trx, userId, moment, autoRenewAfter(type, subtype, autoRenew));
          if (renewalInfo) {
            await setRenewal(
              trx,
              userId,
              renewalOf(renewalInfo, row.originalTransactionId),
              moment,
            );
          }
          return 'processed';
        });
      });
    },
  };
}

export type MembershipService = ReturnType<typeof membershipService>;
