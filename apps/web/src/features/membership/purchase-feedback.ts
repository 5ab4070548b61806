import { TRANSACTION_ERROR_CODES, type TransactionErrorCode } from '@guquan/contract/membership';
import type { Feedback } from './action-feedback';
import type { MembershipTexts } from './membership-texts';
import type { PurchaseOutcome, RestoreOutcome } from './purchase-flow';

function isTransactionError(code: string): code is TransactionErrorCode {
  const known: readonly string[] = TRANSACTION_ERROR_CODES;
  return known.includes(code);
}

/** Why the server refused a transaction, in words; its code comes last, for support. */
export function rejectedText(code: string, text: MembershipTexts): string {
  const reason = isTransactionError(code) ? text.rejectedReasons[code] : text.rejectedOther;
  return text.rejected(reason, code);
}

/** What a purchase that did not confirm (or is still waiting) tells the user. */
export function unconfirmedFeedback(
  outcome: Exclude<PurchaseOutcome, { state: 'confirmed' }>,
  text: MembershipTexts,
): Feedback {
  switch (outcome.state) {
    case 'cancelled':
      return { kind: 'warning', text: text.cancelled };
    case 'pending':
      return { kind: 'warning', text: text.pending };
    case 'unconfirmed':
      return { kind: 'warning', text: text.unconfirmed };
    case 'rejected':
      return { kind: 'error', text: rejectedText(outcome.code, text) };
    case 'signed-out':
      return { kind: 'error', text: text.signedOut };
    case 'failed':
      return { kind: 'error', text: text.failed };
  }
}

/** What Restore Purchases ended in; undefined when the user cancelled (nothing to say). */
export function restoreFeedback(
  outcome: Exclude<RestoreOutcome, { state: 'restored' }>,
  text: MembershipTexts,
): Feedback | undefined {
  switch (outcome.state) {
    case 'cancelled':
      return undefined;
    case 'unconfirmed':
      return { kind: 'error', text: text.loadFailed };
    case 'signed-out':
      return { kind: 'error', text: text.signedOut };
    case 'failed':
      return {
        kind: 'error',
        text: outcome.code ? rejectedText(outcome.code, text) : text.restoreFailed,
      };
  }
}
