import type { Kysely, Migration } from 'kysely';
import { sessionTables } from './0002-sessions.ts';

/**
 * The site issues no token of its own any more: the app's access token is the platform's JWT
 * (docs/decisions/0022-platform-tokens.md). What the sessions did moves to the token's claims:
 * revocation on a confirmed deletion to `iat`, the log-in that withdraws a deletion request to
 * `auth_time`. The table goes with every session in it (a user simply gets the platform's token
 * from the app); `down` brings back the empty table as 0002 made it.
 */
export const noSessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropTable('sessions').execute();
  },
  async down(db: Kysely<unknown>) {
    await sessionTables.up(db);
  },
};
