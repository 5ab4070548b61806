import {
  MEMBERSHIP_PATH,
  MEMBERSHIP_RESTORE_PATH,
  MEMBERSHIP_TRANSACTIONS_PATH,
  membershipResponseSchema,
  restoreResponseSchema,
  submitTransactionResponseSchema,
  type MembershipResponse,
  type RestoreResponse,
  type SubmitTransactionResponse,
} from '@guquan/contract/membership';
import {
  callApi,
  type ApiAnswer,
  type ApiFailure,
  type ApiResult,
} from '../../lib/in-app/api-client';

/**
 * How a call failed, for a purchase: `unreachable` may pass on a later try (network, timeout,
 * server busy or down), so a purchase stays unfinished in the app; `rejected` is the server's
 * final word (its code says why); `unauthorized` means the session ended.
 */
export interface MembershipFailure {
  kind: 'unreachable' | 'rejected' | 'unauthorized';
  code: string;
}

function membershipFailure(failure: ApiFailure): MembershipFailure {
  switch (failure.kind) {
    case 'network':
    case 'timeout':
      return { kind: 'unreachable', code: failure.kind };
    case 'unauthorized':
      return { kind: 'unauthorized', code: failure.code };
    case 'bad_answer':
    case 'refused': {
      const { status } = failure;
      const code =
        failure.kind === 'refused'
          ? failure.error.code
          : status >= 200 && status < 300
            ? 'bad_reply'
            : `http_${status}`;
      const retryable = status < 300 || status >= 500 || status === 429 || status === 408;
      return { kind: retryable ? 'unreachable' : 'rejected', code };
    }
  }
}

export type MembershipAnswer<T> = ApiAnswer<T, MembershipFailure>;

function answer<T>(result: ApiResult<T>): MembershipAnswer<T> {
  return result.ok ? result : { ok: false, ...membershipFailure(result) };
}

/** The membership endpoints, with the session token in the Authorization header only. */
export const membershipApi = {
  overview: async (token: string): Promise<MembershipAnswer<MembershipResponse>> =>
    answer(await callApi({ path: MEMBERSHIP_PATH, token, schema: membershipResponseSchema })),
  submit: async (
    token: string,
    signedTransaction: string,
    signedRenewalInfo?: string,
  ): Promise<MembershipAnswer<SubmitTransactionResponse>> =>
    answer(
      await callApi({
        method: 'POST',
        path: MEMBERSHIP_TRANSACTIONS_PATH,
        token,
        schema: submitTransactionResponseSchema,
        body: signedRenewalInfo ? { signedTransaction, signedRenewalInfo } : { signedTransaction },
      }),
    ),
  restore: async (
    token: string,
    signedTransactions: string[],
  ): Promise<MembershipAnswer<RestoreResponse>> =>
    answer(
      await callApi({
        method: 'POST',
        path: MEMBERSHIP_RESTORE_PATH,
        token,
        schema: restoreResponseSchema,
        body: { signedTransactions },
      }),
    ),
};

export type MembershipApi = typeof membershipApi;
