import type { z } from 'zod';
import { apiErrorSchema, type ApiError } from '@guquan/contract/api-error';

/** How long an in-app page waits for the server before it offers to try again. */
export const API_TIMEOUT_MS = 15_000;

/** The body of the one error shape, `{ "error": { "code", "message" } }`. */
export type ApiErrorBody = ApiError['error'];

/**
 * Every way an authorised call ends. A page maps the failures to what it shows; it never sees a
 * thrown error, a raw Response or unchecked JSON.
 */
export type ApiResult<T, E extends ApiErrorBody = ApiErrorBody> =
  { ok: true; value: T } | ApiFailure<E>;

export type ApiFailure<E extends ApiErrorBody = ApiErrorBody> =
  /** No answer at all (offline, DNS, connection reset): the outcome of a write is unknown. */
  | { ok: false; kind: 'network' }
  /** No answer within the timeout: the outcome of a write is unknown. */
  | { ok: false; kind: 'timeout' }
  /** 401: the session ended on the server. */
  | { ok: false; kind: 'unauthorized'; code: string }
  /** An answer in the error shape: the server's word, with its status. */
  | { ok: false; kind: 'refused'; status: number; error: E }
  /** An answer the contract does not allow (not JSON, wrong shape, a proxy's error page). */
  | { ok: false; kind: 'bad_answer'; status: number };

/**
 * What a feature's API module answers its page (docs/architecture.md, "A new in-app page"): the
 * value, or one of the failures that page tells apart (`F`, each with its `kind`), mapped from
 * {@link ApiResult} inside the module so the page never sees an {@link ApiFailure}.
 */
export type ApiAnswer<T, F extends { kind: string }> = { ok: true; value: T } | ({ ok: false } & F);

export interface ApiRequest<T> {
  method?: 'GET' | 'POST' | 'DELETE';
  /** The full path, from the contract's path constants. */
  path: string;
  /**
   * The session token: it goes in the Authorization header only, never in a URL. Left out only
   * for what anybody may read (a design's preview before the log-in).
   */
  token: string | undefined;
  /** The contract's schema of a successful answer (`z.null()` for one without a body: 204). */
  schema: z.ZodType<T>;
  body?: unknown;
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

async function readJson(response: Response): Promise<{ json: unknown } | undefined> {
  if (response.status === 204) return { json: null };
  try {
    return { json: await response.json() };
  } catch {
    return undefined;
  }
}

/** One authorised call of the API, as every in-app page makes it. */
export function callApi<T>(request: ApiRequest<T>): Promise<ApiResult<T>> {
  return callApiWith(apiErrorSchema, request);
}

/** {@link callApi} for an endpoint whose errors carry more than code and message. */
export async function callApiWith<T, E extends ApiErrorBody>(
  errorSchema: z.ZodType<{ error: E }>,
  request: ApiRequest<T>,
): Promise<ApiResult<T, E>> {
  const { method = 'GET', path, token, schema, body } = request;
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, request.timeoutMs ?? API_TIMEOUT_MS);
  const timedOut = () => controller.signal.aborted;
  try {
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          accept: 'application/json',
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...request.headers,
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        // Private answers: never from, nor into, the browser's cache.
        cache: 'no-store',
        signal: controller.signal,
      });
    } catch {
      return { ok: false, kind: timedOut() ? 'timeout' : 'network' };
    }
    const read = await readJson(response);
    if (timedOut()) return { ok: false, kind: 'timeout' };
    if (response.ok) {
      const parsed = schema.safeParse(read?.json);
      return read && parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, kind: 'bad_answer', status: response.status };
    }
    const parsedError = errorSchema.safeParse(read?.json);
    if (response.status === 401) {
      return {
        ok: false,
        kind: 'unauthorized',
        code: parsedError.data?.error.code ?? 'unauthorized',
      };
    }
    return parsedError.success
      ? { ok: false, kind: 'refused', status: response.status, error: parsedError.data.error }
      : { ok: false, kind: 'bad_answer', status: response.status };
  } finally {
    clearTimeout(timer);
  }
}
