import type { Membership } from '@guquan/contract/membership';
import { BridgeError, type Bridge } from '../../lib/bridge/native-bridge';
import { membershipApi, type MembershipApi, type MembershipFailure } from './membership-api';

/**
 * Buying a membership without ever losing a purchase: StoreKit (through the app) → the signed
 * transaction → the server verifies and grants it → only then the app is told to finish it. A
 * transaction the server did not confirm stays unfinished in the app, which hands it over again
 * (storeKitUnfinished, transactionUpdated) until the server has it.
 */
export type SubmitOutcome =
  | { state: 'confirmed'; membership: Membership; transactionId: string }
  /** The server could not be reached: the app keeps the transaction and it is sent again. */
  | { state: 'unconfirmed' }
  | { state: 'rejected'; code: string }
  | { state: 'signed-out' };

export type PurchaseOutcome =
  | SubmitOutcome
  | { state: 'cancelled' }
  /** Waiting for approval (Ask to Buy): it arrives later as transactionUpdated. */
  | { state: 'pending' }
  /** The App Store did not complete it; its message is for the log, never shown as it is. */
  | { state: 'failed' };

export type RestoreOutcome =
  | { state: 'restored'; membership: Membership; count: number }
  | { state: 'cancelled' }
  | { state: 'unconfirmed' }
  | { state: 'signed-out' }
  | { state: 'failed'; code?: string };

/** After the App Store's subscription management closed: the membership as the server has it. */
export type ManageOutcome =
  { state: 'closed'; membership: Membership | undefined } | { state: 'failed' };

export interface MembershipFlow {
  submit(signedTransaction: string, signedRenewalInfo?: string): Promise<SubmitOutcome>;
  purchase(
    productId: string,
    appAccountToken: string,
    onVerifying: () => void,
  ): Promise<PurchaseOutcome>;
  /** Sends every transaction the app holds unfinished; the latest confirmed membership, if any. */
  syncUnfinished(): Promise<Membership | undefined>;
  restore(): Promise<RestoreOutcome>;
  /** Opens the App Store's own subscription management (change or cancel the plan). */
  manage(): Promise<ManageOutcome>;
}

function fromFailure({
  kind,
  code,
}: MembershipFailure): Exclude<SubmitOutcome, { state: 'confirmed' }> {
  if (kind === 'unauthorized') return { state: 'signed-out' };
  if (kind === 'unreachable') return { state: 'unconfirmed' };
  return { state: 'rejected', code };
}

export function createMembershipFlow(
  bridge: Bridge,
  token: string,
  api: MembershipApi = membershipApi,
): MembershipFlow {
  const submit = async (
    signedTransaction: string,
    signedRenewalInfo?: string,
  ): Promise<SubmitOutcome> => {
    const result = await api.submit(token, signedTransaction, signedRenewalInfo);
    if (!result.ok) return fromFailure(result);
    const confirmed = result.value;
    try {
      await bridge.call('storeKitFinish', { transactionId: confirmed.transactionId });
    } catch {
      // The server has it: if the app missed the finish, it offers the transaction again as
      // unfinished, and the server answers that replay with the same state.
    }
    return { state: 'confirmed', ...confirmed };
  };

  return {
    submit,

    async purchase(productId, appAccountToken, onVerifying) {
      let result;
      try {
        result = await bridge.call('storeKitPurchase', { productId, appAccountToken });
      } catch (error) {
        if (error instanceof BridgeError && error.code === 'cancelled')
          return { state: 'cancelled' };
        return { state: 'failed' };
      }
      if (result.state !== 'purchased') return { state: result.state };
      onVerifying();
      return submit(result.signedTransaction, result.signedRenewalInfo);
    },

    async syncUnfinished() {
      let unfinished: string[];
      try {
        unfinished = (await bridge.call('storeKitUnfinished', {})).signedTransactions;
      } catch {
        return undefined;
      }
      let latest: Membership | undefined;
      for (const signedTransaction of unfinished) {
        const outcome = await submit(signedTransaction);
        if (outcome.state === 'confirmed') latest = outcome.membership;
      }
      return latest;
    },

    async restore() {
      let signedTransactions: string[];
      try {
        signedTransactions = (await bridge.call('storeKitRestore', {})).signedTransactions;
      } catch (error) {
        if (error instanceof BridgeError && error.code === 'cancelled')
          return { state: 'cancelled' };
        return { state: 'failed' };
      }
      const restored = await api.restore(token, signedTransactions);
      if (restored.ok) {
        return {
          state: 'restored',
          membership: restored.value.membership,
          count: restored.value.accepted.length,
        };
      }
      const outcome = fromFailure(restored);
      return outcome.state === 'rejected' ? { state: 'failed', code: outcome.code } : outcome;
    },

    async manage() {
      try {
        await bridge.call('storeKitManageSubscriptions', {});
      } catch {
        return { state: 'failed' };
      }
      // What the user changed there reaches the server through the App Store's notifications.
      const overview = await api.overview(token);
      return { state: 'closed', membership: overview.ok ? overview.value.membership : undefined };
    },
  };
}
