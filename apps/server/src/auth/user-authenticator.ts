import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
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
      const row = await db
        .selectFrom('users')
        .leftJoin('account_deletion_requests as pending', (join) =>
          join
            .onRef('pending.user_id', '=', 'users.id')
            .on('pending.cancelled_at', 'is', null)
            .on('pending.completed_at', 'is', null),
        )
        .select(['users.id as id', 'users.public_id as publicId', 'pending.requested_at'])
        .where('users.public_id', '=', claims.userId)
        .where('users.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const user = { id: row.id, publicId: row.publicId };
      if (row.requested_at === null) return user;
      switch (deletionStanding(claims, Date.parse(row.requested_at))) {
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
