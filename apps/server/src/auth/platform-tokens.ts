import { errors, jwtVerify, type JWTPayload } from 'jose';
import { publicIdSchema } from '@guquan/contract/share';
import { KeysUnavailable, platformKeySet } from './platform-key-set.ts';

/** The audience of the platform's tokens meant for this site (PRODUCT.md, "Who the user is"). */
export const TOKEN_AUDIENCE = 'guquan-web';
/** Asymmetric algorithms only: never `none`, never HMAC (a shared secret would sign tokens). */
export const TOKEN_ALGORITHMS = ['ES256', 'RS256', 'EdDSA'];
/** Clock skew allowed on `exp` (and `nbf`), in seconds. */
export const CLOCK_TOLERANCE_S = 60;

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
  // Anything but jose's word on the token itself is ours (a JWKS that fails, a bug).
  return error instanceof KeysUnavailable || !(error instanceof errors.JOSEError);
}

/**
 * Verifies the platform's access tokens with jose against PLATFORM_JWKS_URL: the issuer, the
 * audience `guquan-web`, ES256/RS256/EdDSA only, `exp` with 60 s of skew, `sub`, `iat`, `exp` and
 * `auth_time` required. The keys come from platform-key-set.ts: at most one fetch per 30 s,
 * shared, kept as the JWKS's Cache-Control says (30 s to 5 minutes).
 */
export function platformTokenVerifier(options: PlatformTokenOptions): VerifyPlatformToken {
  const now = options.now ?? (() => new Date());
  const keys = platformKeySet({
    url: options.jwksUrl,
    now,
    ...(options.fetch ? { fetch: options.fetch } : {}),
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
