import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import { readBodyUpTo } from '../http/bounded-body.ts';

/**
 * The platform's public keys, fetched from PLATFORM_JWKS_URL (docs/decisions/0022-platform-tokens.md):
 * at most one fetch per 30 s, whether it succeeded or failed, concurrent verifications sharing
 * the one under way; the keys kept as long as the JWKS's own Cache-Control says (less a cache's
 * `Age`), between 30 s and 5 minutes, so a key the platform withdraws stops working within that.
 * Past it the keys are not used: until a fetch succeeds, tokens are refused for the keys.
 */

/** At most one fetch of the JWKS this often, failed or not. */
export const JWKS_MIN_INTERVAL_MS = 30_000;
/** The keys are kept at most this long, whatever the JWKS says (and this long when it says nothing). */
export const JWKS_MAX_AGE_MS = 5 * 60_000;
const FETCH_TIMEOUT_MS = 5_000;
/** A JWKS is a few keys: anything much larger is not one. */
const MAX_JWKS_BYTES = 256 * 1024;

/** The keys could not be had: not the token's fault. */
export class KeysUnavailable extends Error {}

export interface PlatformKeySetOptions {
  url: string;
  /** Replaces fetch (tests count the requests, or change the answers). */
  fetch?: typeof fetch;
  now: () => Date;
}

/**
 * How long an answer may be kept, in ms, by its Cache-Control and Age (RFC 9111: max-age less
 * the age), within [JWKS_MIN_INTERVAL_MS, JWKS_MAX_AGE_MS]: no-store and no-cache keep it the
 * shortest, an answer that says nothing the longest.
 */
export function keptForMs(headers: Headers): number {
  const directives = (headers.get('cache-control') ?? '').toLowerCase();
  let seconds: number;
  if (/(^|[\s,])no-(store|cache)\b/.test(directives)) seconds = 0;
  else {
    const maxAge = /(^|[\s,])max-age\s*=\s*"?(\d+)/.exec(directives)?.[2];
    if (maxAge === undefined) return JWKS_MAX_AGE_MS;
    const age = Number.parseInt(headers.get('age') ?? '0', 10);
    seconds = Number.parseInt(maxAge, 10) - (Number.isFinite(age) ? age : 0);
  }
  return Math.min(JWKS_MAX_AGE_MS, Math.max(JWKS_MIN_INTERVAL_MS, seconds * 1000));
}

interface Keys {
  find: JWTVerifyGetKey;
  /** When they may no longer be used (ms since the epoch). */
  until: number;
}

async function fetchKeys(url: string, fetchImpl: typeof fetch, fetchedAt: number): Promise<Keys> {
  let response: Response;
  try {
    response = await fetchImpl(url, {
      redirect: 'manual',
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      headers: { accept: 'application/jwk-set+json, application/json' },
    });
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : error;
    throw new KeysUnavailable(`the JWKS could not be fetched: ${String(reason)}`);
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new KeysUnavailable(`the JWKS answered ${response.status}`);
  }
  const body = await readBodyUpTo(response, MAX_JWKS_BYTES).catch(() => undefined);
  if (!body) throw new KeysUnavailable('the JWKS could not be read whole');
  try {
    const find = createLocalJWKSet(JSON.parse(body.toString('utf8')) as JSONWebKeySet);
    return { find, until: fetchedAt + keptForMs(response.headers) };
  } catch {
    throw new KeysUnavailable('the JWKS answered something that is no JSON Web Key Set');
  }
}

/** The key a token names, from the platform's JWKS as kept by the rules above. */
export function platformKeySet(options: PlatformKeySetOptions): JWTVerifyGetKey {
  const fetchImpl = options.fetch ?? fetch;
  const now = () => options.now().getTime();
  let keys: Keys | undefined;
  let lastFetchAt: number | undefined;
  let lastFailure: string | undefined;
  let underWay: Promise<void> | undefined;

  /** Fetches the keys again unless a fetch is under way (joined) or one began within 30 s. */
  function refresh(): Promise<void> {
    if (underWay) return underWay;
    const at = now();
    if (lastFetchAt !== undefined && at - lastFetchAt < JWKS_MIN_INTERVAL_MS) {
      return Promise.resolve();
    }
    lastFetchAt = at;
    underWay = fetchKeys(options.url, fetchImpl, at)
      .then(
        (fetched) => {
          keys = fetched;
          lastFailure = undefined;
        },
        (error: unknown) => {
          lastFailure = error instanceof Error ? error.message : String(error);
        },
      )
      .finally(() => {
        underWay = undefined;
      });
    return underWay;
  }

  async function usableKeys(): Promise<Keys> {
    if (!keys || now() >= keys.until) await refresh();
    if (keys && now() < keys.until) return keys;
    throw new KeysUnavailable(lastFailure ?? 'the JWKS has not been fetched yet');
  }

  return async (header, token) => {
    const current = await usableKeys();
    try {
      return await current.find(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      // A kid the copy lacks: perhaps a new key (at most one fetch per 30 s, shared).
      await refresh();
      if (keys === current) throw error;
      return (await usableKeys()).find(header, token);
    }
  };
}
