import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  designApiPath,
  designViewSchema,
  IDEMPOTENCY_KEY_HEADER,
  redemptionResultSchema,
  redemptionsApiPath,
  type DesignView,
  type RedemptionResult,
} from '@guquan/contract/design';

/** How long the page waits for the server before it offers to try again. */
const REQUEST_TIMEOUT_MS = 15_000;

export type ViewAnswer =
  | { state: 'ok'; view: DesignView }
  | { state: 'unauthorized' | 'not_found' | 'invalid_id' | 'failed' };

export type RedeemAnswer =
  | { state: 'redeemed'; result: RedemptionResult }
  | {
      state:
        | 'already_redeemed'
        | 'insufficient_points'
        | 'unavailable'
        | 'not_found'
        | 'invalid_id'
        | 'unauthorized'
        | 'idempotency_key_reused'
        | 'too_many_requests'
        /** No answer, or one the contract does not allow: the outcome is unknown. */
        | 'failed';
    };

const KNOWN_REFUSALS = new Set([
  'already_redeemed',
  'insufficient_points',
  'unavailable',
  'not_found',
  'invalid_id',
  'unauthorized',
  'idempotency_key_reused',
  'too_many_requests',
] as const);
type KnownRefusal = typeof KNOWN_REFUSALS extends Set<infer T> ? T : never;

async function request(url: string, init: RequestInit): Promise<Response | undefined> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, REQUEST_TIMEOUT_MS);
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

async function errorCode(response: Response): Promise<string | undefined> {
  try {
    return apiErrorSchema.parse(await response.json()).error.code;
  } catch {
    return undefined;
  }
}

function authorized(token: string): Record<string, string> {
  return { accept: 'application/json', authorization: `Bearer ${token}` };
}

/** The design and the user's standing with it; the token only ever goes in the header. */
export async function fetchDesignView(designId: string, token: string): Promise<ViewAnswer> {
  const response = await request(designApiPath(designId), { headers: authorized(token) });
  if (!response) return { state: 'failed' };
  if (response.status === 401) return { state: 'unauthorized' };
  if (response.status === 404) return { state: 'not_found' };
  if (response.status === 400) return { state: 'invalid_id' };
  if (!response.ok) return { state: 'failed' };
  try {
    return { state: 'ok', view: designViewSchema.parse(await response.json()) };
  } catch {
    return { state: 'failed' };
  }
}

/**
 * One try of a redemption attempt. Sending the same key again is safe: the server answers with
 * the original redemption and debits nothing.
 */
export async function postRedemption(
  designId: string,
  token: string,
  idempotencyKey: string,
): Promise<RedeemAnswer> {
  const response = await request(redemptionsApiPath(designId), {
    method: 'POST',
    headers: { ...authorized(token), [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
  if (!response) return { state: 'failed' };
  if (response.ok) {
    try {
      return { state: 'redeemed', result: redemptionResultSchema.parse(await response.json()) };
    } catch {
      return { state: 'failed' };
    }
  }
  const code = await errorCode(response);
  return KNOWN_REFUSALS.has(code as KnownRefusal)
    ? { state: code as KnownRefusal }
    : { state: 'failed' };
}
