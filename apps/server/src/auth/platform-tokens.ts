import { createRemoteJWKSet, customFetch, errors, jwtVerify, type JWTPayload } from 'jose';
import { publicIdSchema } from '@guquan/contract/share';

/** The audience of the platform's tokens meant for this site (PRODUCT.md, "Who the user is"). */
export const TOKEN_AUDIENCE = 'guquan-web';
/** Asymmetric algorithms only: never `none`, never HMAC (a shared secret would sign tokens). */
export const TOKEN_ALGORITHMS = ['ES256', 'RS256', 'EdDSA'];
/** Clock skew allowed on `exp` (and `nbf`), in seconds. */
export const CLOCK_TOLERANCE_S = 60;
/** An unknown `kid` fetches the JWKS again at most this often. */
export const JWKS_COOLDOWN_MS = 30_000;

/** What the site takes from a verified token. */
export interface PlatformClaims {
  /** The user's public id (`sub`). */
  userId: string;
  /** Unix seconds: when this token was issued (a refresh gives a later one). */
  issuedAt: number;
  /** Unix seconds: when the user last logged in (OpenID Connect's `auth_time`). */
  authTime: number;
}

export type TokenCheck =
  | { ok: true; claims: PlatformClaims }
  /** `invalid`: the token is not good (the client's problem); `keys`: the JWKS failed us. */
  | { ok: false; reason: 'invalid' | 'keys'; detail: string };

export interface PlatformTokenOptions {
  issuer: string;
  jwksUrl: string;
  /** Replaces fetch for the JWKS (tests count the requests). */
  fetch?: typeof fetch;
  now?: () => Date;
}

export type VerifyPlatformToken = (token: string) => Promise<TokenCheck>;

function claimsOf(payload: JWTPayload): PlatformClaims | string {
  const { sub, iat, auth_time: authTime } = payload;
  if (!publicIdSchema.safeParse(sub).success) return 'sub is not a user id';
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'iat is not a number';
  if (typeof authTime !== 'number' || !Number.isFinite(authTime)) {
    return 'auth_time is not a number';
  }
  return { userId: sub as string, issuedAt: iat, authTime };
}

/** Errors that say the keys could not be had, rather than that the token is bad. */
function isKeysFailure(error: unknown): boolean {
  return (
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    // fetch itself failed (the JWKS host is down): not a JOSE error at all.
    !(error instanceof errors.JOSEError)
  );
}

/**
 * Verifies the platform's access tokens with jose against PLATFORM_JWKS_URL: the issuer, the
 * audience `guquan-web`, ES256/RS256/EdDSA only, `exp` with 60 s of skew, `sub`, `iat`, `exp` and
 * `auth_time` required. jose's remote JWKS caches the keys, fetches them again when a token names
 * an unknown `kid` (at most once per cooldown) and shares one fetch among concurrent callers.
 */
export function platformTokenVerifier(options: PlatformTokenOptions): VerifyPlatformToken {
  const now = options.now ?? (() => new Date());
  const keys = createRemoteJWKSet(new URL(options.jwksUrl), {
    cooldownDuration: JWKS_COOLDOWN_MS,
    cacheMaxAge: 10 * 60_000,
    timeoutDuration: 5_000,
    ...(options.fetch ? { [customFetch]: options.fetch } : {}),
  });
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, {
        issuer: options.issuer,
        audience: TOKEN_AUDIENCE,
        algorithms: TOKEN_ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_S,
        requiredClaims: ['sub', 'iat', 'exp', 'auth_time'],
        currentDate: now(),
      });
      const claims = claimsOf(payload);
      return typeof claims === 'string'
        ? { ok: false, reason: 'invalid', detail: claims }
        : { ok: true, claims };
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      return { ok: false, reason: isKeysFailure(error) ? 'keys' : 'invalid', detail };
    }
  };
}
