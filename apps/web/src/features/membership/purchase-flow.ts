import type { Membership } from '@guquan/contract/membership';
import { BridgeError, type Bridge } from '../../lib/bridge/native-bridge';
import type { ApiFailure } from '../../lib/in-app/api-client';
import { membershipApi, membershipFailure, type MembershipApi } from './membership-api';

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
  | { state: 'failed'; message: string };

export type RestoreOutcome =
  | { state: 'restored'; membership: Membership; count: number }
  | { state: 'cancelled' }
  | { state: 'unconfirmed' }
  | { state: 'signed-out' }
  | { state: 'failed'; message: string };

export interface MembershipFlow {
  submit(signedTransaction: string): Promise<SubmitOutcome>;
  purchase(
    productId: string,
    appAccountToken: string,
    onVerifying: () => void,
  ): Promise<PurchaseOutcome>;
  /** Sends every transaction the app holds unfinished; the latest confirmed membership, if any. */
  syncUnfinished(): Promise<Membership | undefined>;
  restore(): Promise<RestoreOutcome>;
}

function fromApiFailure(failure: ApiFailure): Exclude<SubmitOutcome, { state: 'confirmed' }> {
  const { kind, code } = membershipFailure(failure);
  if (kind === 'unauthorized') return { state: 'signed-out' };
  if (kind === 'unreachable') return { state: 'unconfirmed' };
  return { state: 'rejected', code };
}

export function createMembershipFlow(
  bridge: Bridge,
  token: string,
  api: MembershipApi = membershipApi,
): MembershipFlow {
  const submit = async (signedTransaction: string): Promise<SubmitOutcome> => {
    const result = await api.submit(token, signedTransaction);
    if (!result.ok) return fromApiFailure(result);
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
        return { state: 'failed', message: error instanceof Error ? error.message : String(error) };
      }
      if (result.state !== 'purchased') return { state: result.state };
      onVerifying();
      return submit(result.signedTransaction);
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
        return { state: 'failed', message: error instanceof Error ? error.message : String(error) };
      }
      const restored = await api.restore(token, signedTransactions);
      if (restored.ok) {
        return {
          state: 'restored',
          membership: restored.value.membership,
          count: restored.value.accepted.length,
        };
      }
      const outcome = fromApiFailure(restored);
      return outcome.state === 'rejected' ? { state: 'failed', message: outcome.code } : outcome;
    },
  };
}
