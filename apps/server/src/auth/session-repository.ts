import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from '../db/database.ts';
import type { Database } from '../db/schema.ts';

/** How long a session lasts; the app asks for a new one by logging in again. */
export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

export interface SessionUser {
  /** The server's own row id: never sent out. */
  id: number;
  publicId: string;
}

export interface IssuedSession {
  token: string;
  userId: string;
  expiresAt: string;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface SessionRepositoryOptions {
  now?: () => Date;
  /**
   * Runs in the log-in's transaction: what other features do when a user logs in (app.ts wires
   * account deletion's "a log-in during the cool-off withdraws the request", privacy policy 11.5).
   */
  onLogin?: (trx: Kysely<Database>, userId: number, at: Date) => Promise<unknown>;
}

/**
 * Sessions: tokens are 32 random bytes, handed out once and stored only as their SHA-256 (a
 * high-entropy token needs no slow hash), looked up by that hash.
 */
export function sessionRepository(db: Db, options: SessionRepositoryOptions = {}) {
  const now = options.now ?? (() => new Date());
  return {
    async issue(user: SessionUser): Promise<IssuedSession> {
      const token = randomBytes(32).toString('base64url');
      const created = now();
      const expiresAt = new Date(created.getTime() + SESSION_LIFETIME_MS).toISOString();
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('sessions')
          .values({
            token_hash: hashToken(token),
            user_id: user.id,
            created_at: created.toISOString(),
            expires_at: expiresAt,
            revoked_at: null,
          })
          .execute();
        await options.onLogin?.(trx, user.id, created);
      });
      return { token, userId: user.publicId, expiresAt };
    },

    /** The user of a live session, or undefined (unknown, expired or revoked token). */
    async authenticate(token: string): Promise<SessionUser | undefined> {
      const row = await db
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select(['users.id as id', 'users.public_id as publicId', 'sessions.expires_at'])
        .where('sessions.token_hash', '=', hashToken(token))
        .where('sessions.revoked_at', 'is', null)
        // A log-in racing the deletion job on another server may leave a session behind.
        .where('users.deleted_at', 'is', null)
        .executeTakeFirst();
      if (!row || row.expires_at <= now().toISOString()) return undefined;
      return { id: row.id, publicId: row.publicId };
    },

    async revoke(token: string): Promise<void> {
      await db
        .updateTable('sessions')
        .set({ revoked_at: now().toISOString() })
        .where('token_hash', '=', hashToken(token))
        .where('revoked_at', 'is', null)
        .execute();
    },

    /**
     * Ends every session of a user (account deletion), but the one of `except` (the token of the
     * request that asked), at `at`, in the caller's transaction `trx` when given.
     */
    async revokeAll(
      userId: number,
      { except, at = now(), trx = db }: { except?: string; at?: Date; trx?: Kysely<Database> } = {},
    ): Promise<void> {
      await trx
        .updateTable('sessions')
        .set({ revoked_at: at.toISOString() })
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .$if(except !== undefined, (query) =>
          query.where('token_hash', '!=', hashToken(except ?? '')),
        )
        .execute();
    },
  };
}

export type SessionRepository = ReturnType<typeof sessionRepository>;
