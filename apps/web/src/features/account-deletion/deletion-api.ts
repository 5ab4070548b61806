import {
  ACCOUNT_DELETION_CODE_CHECK_PATH,
  ACCOUNT_DELETION_CODE_PATH,
  ACCOUNT_DELETION_PATH,
  confirmDeletionResponseSchema,
  deletionErrorSchema,
  deletionOverviewSchema,
  sendCodeResponseSchema,
  type DeletionError,
  type DeletionRequest,
} from '@guquan/contract/account-deletion';
import { z } from 'zod';
import { callApiWith, type ApiAnswer, type ApiResult } from '../../lib/in-app/api-client';

/**
 * What the page tells apart: the server's word on the request (wrong code, rate limit, blocked…),
 * an ended session, and anything else, which the user can retry.
 */
export type DeletionResult<T> = ApiAnswer<
  T,
  | { kind: 'unauthorized' }
  | { kind: 'network' }
  | { kind: 'error'; status: number; error: DeletionError['error'] }
>;

function deletionResult<T>(result: ApiResult<T, DeletionError['error']>): DeletionResult<T> {
  if (result.ok) return result;
  if (result.kind === 'unauthorized') return { ok: false, kind: 'unauthorized' };
  // A server error is retryable, except a failed SMS: the page says that one in words.
  if (result.kind === 'refused' && (result.status < 500 || result.error.code === 'sms_failed')) {
    return { ok: false, kind: 'error', status: result.status, error: result.error };
  }
  return { ok: false, kind: 'network' };
}

async function call<T>(
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  path: string,
  schema: z.ZodType<T>,
  body?: unknown,
): Promise<DeletionResult<T>> {
  return deletionResult(
    await callApiWith(deletionErrorSchema, { method, path, token, schema, body }),
  );
}

/** The account deletion endpoints; the token comes from the bridge. */
export const deletionApi = {
  overview: (token: string) => call(token, 'GET', ACCOUNT_DELETION_PATH, deletionOverviewSchema),
  sendCode: (token: string) =>
    call(token, 'POST', ACCOUNT_DELETION_CODE_PATH, sendCodeResponseSchema),
  /** Whether the code is right (a try of five, the code unused): before the last confirmation. */
  checkCode: (token: string, code: string) =>
    call(token, 'POST', ACCOUNT_DELETION_CODE_CHECK_PATH, z.null(), { code }),
  confirm: async (token: string, code: string): Promise<DeletionResult<DeletionRequest>> => {
    const result = await call(token, 'POST', ACCOUNT_DELETION_PATH, confirmDeletionResponseSchema, {
      code,
      confirm: true,
    });
    return result.ok ? { ok: true, value: result.value.request } : result;
  },
  cancel: (token: string) => call(token, 'DELETE', ACCOUNT_DELETION_PATH, z.null()),
};
