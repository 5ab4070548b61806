import {
  DEBIT_IDEMPOTENCY_KEY_HEADER,
  insufficientPointsAnswerSchema,
  pointsDebitAnswerSchema,
  POINTS_DEBITS_PATH,
  type PointsDebitRequest,
} from '@guquan/contract/points-debits';
import { firstIssues } from '../config/zod-issues.ts';
import type { Log } from '../http/logging.ts';

/**
 * The platform's debit API, as the site calls it (PRODUCT.md, "The app's platform", Points):
 * `POST {PLATFORM_API_URL}/v1/points/debits` with the service token, the redemption's public id
 * as `Idempotency-Key` and a timeout. Every answer is read with the contract's schemas; anything
 * but a charge or a refusal the contract allows is `unknown`: the redemption stays pending and is
 * asked again with the same key.
 */
export type DebitAnswer =
  | { kind: 'charged'; debitId: string; balance: number }
  | { kind: 'insufficient_points' }
  /** No answer (timeout, cut connection) or one the contract does not allow. */
  | { kind: 'unknown'; reason: string };

export interface DebitRequest {
  /** The Idempotency-Key: the redemption's public id, the same at every retry. */
  key: string;
  body: PointsDebitRequest;
}

export type RequestDebit = (debit: DebitRequest) => Promise<DebitAnswer>;

/** How long the site waits for the platform's answer before it counts it as lost. */
export const DEBIT_TIMEOUT_MS = 5_000;

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The client of one platform (its API base URL and service token). A charge answered with a body
 * the contract refuses (a balance past 2^31 − 1, a missing debit id) is the platform's error,
 * logged as one with what is wrong, and leaves the redemption pending like a lost answer.
 */
export function pointsDebitsClient(
  platform: { apiUrl: string; apiToken: string },
  { timeoutMs = DEBIT_TIMEOUT_MS, log }: { timeoutMs?: number; log?: Log } = {},
): RequestDebit {
  // The API's base URL may have a path of its own: the debits' path goes after it.
  const url = `${platform.apiUrl.replace(/\/+$/, '')}${POINTS_DEBITS_PATH}`;
  return async ({ key, body }) => {
    let status: number;
    let text: string;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${platform.apiToken}`,
          'content-type': 'application/json',
          [DEBIT_IDEMPOTENCY_KEY_HEADER]: key,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      return { kind: 'unknown', reason: `no answer (${reason})` };
    }
    if (status === 200 || status === 201) {
      const charged = pointsDebitAnswerSchema.safeParse(parsedJson(text));
      if (charged.success) return { kind: 'charged', ...charged.data };
      const issues = firstIssues(charged.error, '(answer)');
      log?.warn(
        { status, key, issues },
        'the platform charged a debit with an answer the contract refuses: the redemption stays pending',
      );
      return {
        kind: 'unknown',
        reason: `${status} with an answer the contract does not allow (${issues})`,
      };
    }
    if (status === 409 && insufficientPointsAnswerSchema.safeParse(parsedJson(text)).success) {
      return { kind: 'insufficient_points' };
    }
    return { kind: 'unknown', reason: `${status}: ${text.slice(0, 120)}` };
  };
}
