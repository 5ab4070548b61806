import {
  ACCOUNT_DELETION_CODE_PATH,
  ACCOUNT_DELETION_PATH,
  confirmDeletionResponseSchema,
  deletionErrorSchema,
  deletionOverviewSchema,
  sendCodeResponseSchema,
  type DeletionError,
  type DeletionOverview,
  type DeletionRequest,
  type SendCodeResponse,
} from '@guquan/contract/account-deletion';
import type { z } from 'zod';

/**
 * The account deletion API as the page uses it. The token comes from the bridge and goes only in
 * the Authorization header. Every answer is checked against the contract; anything else is a
 * network failure the user can retry.
 */
export type ApiResult<T> =
  | { ok: true; value: T }
  | { ok: false; kind: 'unauthorized' }
  | { ok: false; kind: 'network' }
  | { ok: false; kind: 'error'; status: number; error: DeletionError['error'] };

async function call<T>(
  token: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  schema: z.ZodType<T> | null,
  body?: unknown,
): Promise<ApiResult<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  } catch {
    return { ok: false, kind: 'network' };
  }
  if (response.status === 401) return { ok: false, kind: 'unauthorized' };
  let json: unknown = null;
  if (response.status !== 204) {
    try {
      json = await response.json();
    } catch {
      return { ok: false, kind: 'network' };
    }
  }
  if (!response.ok) {
    const parsed = deletionErrorSchema.safeParse(json);
    return parsed.success && response.status < 500
      ? { ok: false, kind: 'error', status: response.status, error: parsed.data.error }
      : parsed.success && parsed.data.error.code === 'sms_failed'
        ? { ok: false, kind: 'error', status: response.status, error: parsed.data.error }
        : { ok: false, kind: 'network' };
  }
  if (schema === null) return { ok: true, value: undefined as T };
  const parsed = schema.safeParse(json);
  return parsed.success ? { ok: true, value: parsed.data } : { ok: false, kind: 'network' };
}

export const deletionApi = {
  overview: (token: string) =>
    call<DeletionOverview>(token, 'GET', ACCOUNT_DELETION_PATH, deletionOverviewSchema),
  sendCode: (token: string) =>
    call<SendCodeResponse>(token, 'POST', ACCOUNT_DELETION_CODE_PATH, sendCodeResponseSchema),
  confirm: async (token: string, code: string): Promise<ApiResult<DeletionRequest>> => {
    const result = await call(token, 'POST', ACCOUNT_DELETION_PATH, confirmDeletionResponseSchema, {
      code,
      confirm: true,
    });
    return result.ok ? { ok: true, value: result.value.request } : result;
  },
  cancel: (token: string) => call<undefined>(token, 'DELETE', ACCOUNT_DELETION_PATH, null),
};
