import {
  designApiPath,
  designPreviewApiPath,
  designPreviewSchema,
  designViewSchema,
  IDEMPOTENCY_KEY_HEADER,
  redemptionResultSchema,
  redemptionsApiPath,
  type Design,
  type DesignView,
  type RedemptionResult,
} from '@guquan/contract/design';
import { callApi, type ApiAnswer } from '../../lib/in-app/api-client';

export type ViewAnswer = ApiAnswer<
  DesignView,
  { kind: 'unauthorized' | 'not_found' | 'invalid_id' | 'failed' }
>;

const KNOWN_REFUSALS = [
  'already_redeemed',
  'insufficient_points',
  'own_design',
  'unavailable',
  'not_found',
  'invalid_id',
  'unauthorized',
  'idempotency_key_reused',
  'too_many_requests',
] as const;
type KnownRefusal = (typeof KNOWN_REFUSALS)[number];

export type RedeemAnswer = ApiAnswer<
  RedemptionResult,
  /** `failed`: no answer, or one the contract does not allow: the outcome is unknown. */
  { kind: KnownRefusal | 'failed' }
>;

function isKnownRefusal(code: string): code is KnownRefusal {
  const known: readonly string[] = KNOWN_REFUSALS;
  return known.includes(code);
}

/** The design endpoints; the token only ever goes in the header. */
export const designApi = {
  /**
   * The design as anybody may see it, before the log-in: what would be redeemed. Undefined when
   * it cannot be had (the page then asks for the log-in alone, as before).
   */
  async preview(designId: string): Promise<Design | undefined> {
    const result = await callApi({
      path: designPreviewApiPath(designId),
      token: undefined,
      schema: designPreviewSchema,
    });
    return result.ok ? result.value.design : undefined;
  },

  /** The design and the user's standing with it. */
  async view(token: string, designId: string): Promise<ViewAnswer> {
    const result = await callApi({
      path: designApiPath(designId),
      token,
      schema: designViewSchema,
    });
    if (result.ok) return result;
    if (result.kind === 'unauthorized') return { ok: false, kind: 'unauthorized' };
    if (result.kind === 'refused' || result.kind === 'bad_answer') {
      if (result.status === 404) return { ok: false, kind: 'not_found' };
      if (result.status === 400) return { ok: false, kind: 'invalid_id' };
    }
    return { ok: false, kind: 'failed' };
  },

  /**
   * One try of a redemption attempt. Sending the same key again is safe: the server answers with
   * the original redemption and debits nothing.
   */
  async redeem(token: string, designId: string, idempotencyKey: string): Promise<RedeemAnswer> {
    const result = await callApi({
      method: 'POST',
      path: redemptionsApiPath(designId),
      token,
      schema: redemptionResultSchema,
      headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    });
    if (result.ok) return result;
    if (result.kind === 'unauthorized') return { ok: false, kind: 'unauthorized' };
    if (result.kind === 'refused' && isKnownRefusal(result.error.code)) {
      return { ok: false, kind: result.error.code };
    }
    return { ok: false, kind: 'failed' };
  },
};
