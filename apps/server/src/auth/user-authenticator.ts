import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { accountStanding } from './auth-repository.ts';
import type { PlatformClaims, VerifyPlatformToken } from './platform-tokens.ts';

export interface AuthUser {
  /** The server's own row id: never sent out. */
  id: number;
  publicId: string;
}

export interface UserAuthenticatorOptions {
  db: Db;
  verifyToken: VerifyPlatformToken;
  /**
   * A token shows a log-in after the user confirmed a pending deletion: what other features do
   * (app.ts wires account deletion's "a log-in during the cool-off withdraws the request",
   * privacy policy 11.5).
   */
  onLogin: (db: Kysely<Database>, userId: number, at: Date) => Promise<unknown>;
  /** Told when the platform's keys could not be had (the JWKS host down, say). */
  onKeysFailure?: (detail: string) => void;
  now?: () => Date;
}

export interface Authenticator {
  /** The user a token names, or undefined: the request is refused with 401. */
  authenticate(token: string): Promise<AuthUser | undefined>;
}

/** What the token's claims say against a pending deletion confirmed at `confirmedAtMs`. */
export function deletionStanding(
  claims: Pick<PlatformClaims, 'issuedAt' | 'authTime'>,
  confirmedAtMs: number,
): 'withdraws' | 'revoked' | 'stands' {
  // A log-in after the confirmation withdraws the request (the user came back).
  if (claims.authTime * 1000 > confirmedAtMs) return 'withdraws';
  // Issued before the confirmation: another device's token, ended by it. `iat` has whole
  // seconds: a token of the confirmation's own second is the app's refresh for this page.
  if (claims.issuedAt < Math.floor(confirmedAtMs / 1000)) return 'revoked';
  return 'stands';
}

/**
 * The one place that decides who the user is: the platform's token verified, then the site's
 * copy of that user. Refused: a token that does not verify, a user not received yet, a deleted
 * user, a token issued before its user confirmed a pending deletion. A token whose `auth_time`
 * is after that confirmation withdraws the request and is accepted.
 */
export function userAuthenticator(options: UserAuthenticatorOptions): Authenticator {
  const { db, verifyToken, onLogin } = options;
  const now = options.now ?? (() => new Date());
  return {
    async authenticate(token) {
      const checked = await verifyToken(token);
      if (!checked.ok) {
        if (checked.reason === 'keys') options.onKeysFailure?.(checked.detail);
        return undefined;
      }
      const { claims } = checked;
      const account = await accountStanding(db, claims.userId);
      if (!account) return undefined;
      const user = { id: account.id, publicId: account.publicId };
      if (account.deletionRequestedAt === null) return user;
      switch (deletionStanding(claims, Date.parse(account.deletionRequestedAt))) {
        case 'withdraws':
          await onLogin(db, user.id, now());
          return user;
        case 'revoked':
          return undefined;
        case 'stands':
          return user;
      }
    },
  };
}
