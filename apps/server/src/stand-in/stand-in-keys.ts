import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK } from 'jose';
import { z } from 'zod';
import { readKept, writeKept } from './stand-in-files.ts';

/** The audience the site accepts (PRODUCT.md, "Who the user is"). */
export const TOKEN_AUDIENCE = 'guquan-web';
/** How long a stand-in token lasts: an access token the app refreshes, not a long session. */
export const STAND_IN_TOKEN_LIFETIME_S = 60 * 60;

const keptKeySchema = z.object({
  kid: z.string().min(1),
  privateJwk: z.looseObject({ kty: z.literal('EC'), crv: z.literal('P-256'), d: z.string() }),
});
const keptKeysSchema = z.object({ keys: z.array(keptKeySchema).min(1) });
type KeptKey = z.infer<typeof keptKeySchema>;

export interface SignedToken {
  token: string;
  /** ISO 8601: when the token expires. */
  expiresAt: string;
}

export interface TokenRequest {
  userId: string;
  /** Unix seconds of the user's last log-in; now when not given (a fresh log-in). */
  authTime?: number;
  /** Unix seconds the token is issued at; now when not given. */
  issuedAt?: number;
}

export interface StandInKeys {
  /** The public keys, newest last: what `/.well-known/jwks.json` serves. */
  jwks(): { keys: JWK[] };
  /** A token signed with the newest key (ES256, its kid in the header). */
  sign(issuer: string, request: TokenRequest): Promise<SignedToken>;
  /** Adds a new signing key (a new kid); the older ones stay in the JWKS. */
  rotate(): Promise<string>;
}

async function newKey(): Promise<KeptKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const privateJwk = await exportJWK(privateKey);
  return keptKeySchema.parse({ kid: randomUUID(), privateJwk });
}

function publicJwk({ kid, privateJwk }: KeptKey): JWK {
  const { kty, crv, x, y } = privateJwk as JWK;
  return { kty, crv, x, y, kid, alg: 'ES256', use: 'sig' };
}

/**
 * The stand-in's signing keys, kept in `path` (created on the first start) so the tokens it
 * signed survive a restart of the demo.
 */
export async function loadStandInKeys(path: string): Promise<StandInKeys> {
  const kept = await readKept(path);
  const keys: KeptKey[] =
    kept === undefined ? [await newKey()] : keptKeysSchema.parse(kept).keys.slice();
  if (kept === undefined) await writeKept(path, { keys });

  return {
    jwks: () => ({ keys: keys.map(publicJwk) }),
    async sign(issuer, { userId, authTime, issuedAt }) {
      const current = keys.at(-1);
      if (!current) throw new Error('the stand-in has no signing key');
      const now = issuedAt ?? Math.floor(Date.now() / 1000);
      const expires = now + STAND_IN_TOKEN_LIFETIME_S;
      const token = await new SignJWT({ auth_time: authTime ?? now })
        .setProtectedHeader({ alg: 'ES256', kid: current.kid, typ: 'JWT' })
        .setIssuer(issuer)
        .setAudience(TOKEN_AUDIENCE)
        .setSubject(userId)
        .setIssuedAt(now)
        .setExpirationTime(expires)
        .sign(await importJWK(current.privateJwk as JWK, 'ES256'));
      return { token, expiresAt: new Date(expires * 1000).toISOString() };
    },
    async rotate() {
      const added = await newKey();
      keys.push(added);
      await writeKept(path, { keys });
      return added.kid;
    },
  };
}
