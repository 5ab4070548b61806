import {
  designApiPath,
  designViewSchema,
  IDEMPOTENCY_KEY_HEADER,
  redemptionResultSchema,
  redemptionsApiPath,
  type DesignView,
  type RedemptionResult,
} from '@guquan/contract/design';
import { callApi } from '../../lib/in-app/api-client';

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

const KNOWN_REFUSALS = [
  'already_redeemed',
  'insufficient_points',
  'unavailable',
  'not_found',
  'invalid_id',
  'unauthorized',
  'idempotency_key_reused',
  'too_many_requests',
] as const;
type KnownRefusal = (typeof KNOWN_REFUSALS)[number];

function isKnownRefusal(code: string): code is KnownRefusal {
  const known: readonly string[] = KNOWN_REFUSALS;
  return known.includes(code);
}

/** The design and the user's standing with it; the token only ever goes in the header. */
export async function fetchDesignView(designId: string, token: string): Promise<ViewAnswer> {
  const result = await callApi({ path: designApiPath(designId), token, schema: designViewSchema });
  if (result.ok) return { state: 'ok', view: result.value };
  if (result.kind === 'unauthorized') return { state: 'unauthorized' };
  if (result.kind === 'refused' || result.kind === 'bad_answer') {
    if (result.status === 404) return { state: 'not_found' };
    if (result.status === 400) return { state: 'invalid_id' };
  }
  return { state: 'failed' };
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
  const result = await callApi({
    method: 'POST',
    path: redemptionsApiPath(designId),
    token,
    schema: redemptionResultSchema,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
  if (result.ok) return { state: 'redeemed', result: result.value };
  if (result.kind === 'unauthorized') return { state: 'unauthorized' };
  if (result.kind === 'refused' && isKnownRefusal(result.error.code)) {
    return { state: result.error.code };
  }
  return { state: 'failed' };
}
