import type { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  membershipResponseSchema,
  restoreResponseSchema,
  submitTransactionResponseSchema,
  type MembershipResponse,
  type RestoreResponse,
  type SubmitTransactionResponse,
} from '@guquan/contract/membership';
import { API_BASE_PATH } from '@guquan/contract/site-paths';

/**
 * How a call failed: `unreachable` may pass on a later try (network, server busy or down), so a
 * purchase stays unfinished in the app; `rejected` is the server's final word (its code says why);
 * `unauthorized` means the session ended.
 */
export class MembershipApiError extends Error {
  override name = 'MembershipApiError';
  constructor(
    readonly kind: 'unreachable' | 'rejected' | 'unauthorized',
    readonly code: string,
  ) {
    super(`${kind}: ${code}`);
  }
}

async function call<S extends z.ZodType>(
  path: string,
  token: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  let response: Response;
  try {
    response = await fetch(`${API_BASE_PATH}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
    });
  } catch {
    throw new MembershipApiError('unreachable', 'network');
  }
  const json: unknown = await response.json().catch(() => undefined);
  if (response.ok) {
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    throw new MembershipApiError('unreachable', 'bad_reply');
  }
  const code = apiErrorSchema.safeParse(json).data?.error.code ?? `http_${response.status}`;
  if (response.status === 401) throw new MembershipApiError('unauthorized', code);
  if (response.status >= 500 || response.status === 429 || response.status === 408) {
    throw new MembershipApiError('unreachable', code);
  }
  throw new MembershipApiError('rejected', code);
}

/** The membership endpoints, with the session token in the Authorization header only. */
export interface MembershipApi {
  overview(token: string): Promise<MembershipResponse>;
  submit(token: string, signedTransaction: string): Promise<SubmitTransactionResponse>;
  restore(token: string, signedTransactions: string[]): Promise<RestoreResponse>;
}

export const membershipApi: MembershipApi = {
  overview: (token) => call('/membership', token, membershipResponseSchema),
  submit: (token, signedTransaction) =>
    call('/membership/transactions', token, submitTransactionResponseSchema, { signedTransaction }),
  restore: (token, signedTransactions) =>
    call('/membership/restore', token, restoreResponseSchema, { signedTransactions }),
};
