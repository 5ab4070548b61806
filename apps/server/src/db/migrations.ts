import {
  Migrator,
  SqliteAdapter,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { retryWhile } from '../timing/retry-while.ts';
import { shareTables } from './migrations/0001-share-tables.ts';
import { sessionTables } from './migrations/0002-sessions.ts';
import { designPointTables } from './migrations/0003-designs-points.ts';
import { membershipTables } from './migrations/0004-membership.ts';
import { accountDeletionTables } from './migrations/0005-account-deletion.ts';
import {
  phoneEncryption,
  type PhoneEncryptionContext,
} from './migrations/0006-phone-encryption.ts';
import { textOutboxTable } from './migrations/0007-text-outbox.ts';
import { weChatCredentialsTable } from './migrations/0008-wechat-credentials.ts';
import { subscriptionGroupColumns } from './migrations/0009-subscription-group.ts';
import { appLinkHandoffTables } from './migrations/0010-app-link-handoffs.ts';
import { shareFunnelTable } from './migrations/0011-share-funnel.ts';
import { noShareKindChecks } from './migrations/0012-no-share-kind-checks.ts';
import { platformCopyTables } from './migrations/0013-platform-copy.ts';
import { platformIdsAndPoints } from './migrations/0014-platform-ids-and-points.ts';
import { noSessions } from './migrations/0015-no-sessions.ts';
import { noteCommentCount } from './migrations/0016-note-comment-count.ts';
import { outboxTable } from './migrations/0017-outbox.ts';
import { redemptionDebits } from './migrations/0018-redemption-debits.ts';
import { designFileAndUse } from './migrations/0019-design-file-and-use.ts';
import { goodsShelfIndexes } from './migrations/0020-goods-shelf-index.ts';
import { deliveryAnswers } from './migrations/0021-delivery-answers.ts';

/** What migrations that change data may need: the phone keys (0006 encrypts the numbers). */
export type MigrationContext = PhoneEncryptionContext;

/**
 * Every migration, in order, listed in code: the server is one esbuild bundle, so there is no
 * migration folder to scan at run time. Names sort in the order they apply; never rename one.
 */
export function migrations(context: MigrationContext): Readonly<Record<string, Migration>> {
  return {
    '0001-share-tables': shareTables,
    '0002-sessions': sessionTables,
    '0003-designs-points': designPointTables,
    '0004-membership': membershipTables,
    '0005-account-deletion': accountDeletionTables,
    '0006-phone-encryption': phoneEncryption(context),
    '0007-text-outbox': textOutboxTable,
    '0008-wechat-credentials': weChatCredentialsTable,
    '0009-subscription-group': subscriptionGroupColumns,
    '0010-app-link-handoffs': appLinkHandoffTables,
    '0011-share-funnel': shareFunnelTable,
    '0012-no-share-kind-checks': noShareKindChecks,
    '0013-platform-copy': platformCopyTables,
    '0014-platform-ids-and-points': platformIdsAndPoints,
    '0015-no-sessions': noSessions,
    '0016-note-comment-count': noteCommentCount,
    '0017-outbox': outboxTable,
    '0018-redemption-debits': redemptionDebits,
    '0019-design-file-and-use': designFileAndUse,
    '0020-goods-shelf-index': goodsShelfIndexes,
    '0021-delivery-answers': deliveryAnswers,
  };
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Brings the database to the latest version and gives the names of the migrations this call
 * applied (none when it was current). Safe to run twice, and at once from several processes on
 * PostgreSQL: Kysely's PostgresAdapter holds a session advisory lock (pg_advisory_lock) on the
 * migration's connection around its transaction, so a second run waits, then finds nothing left
 * to apply. SQLite's adapter takes no lock: its database is one machine's, migrated by one process.
 */
export async function migrateToLatest<T>(
  db: Kysely<T>,
  context: MigrationContext,
): Promise<readonly string[]> {
  const provider: MigrationProvider = {
    getMigrations: () => Promise.resolve({ ...migrations(context) }),
  };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new MigrationError(`Database migration ${failed ?? '(setup)'} failed`, { cause: error });
  }
  const applied = (results ?? [])
    .filter((result) => result.status === 'Success')
    .map((result) => result.migrationName);
  if (applied.length > 0) await dropOldPageImages(db);
  return applied;
}

/** How often, and how far apart, the WAL is asked to empty before the migration gives up. */
const TRUNCATE_TRIES = 200;
const TRUNCATE_PAUSE_MS = 25;

/**
 * SQLite in WAL mode keeps the pages a migration rewrote (say, rows with plain phone numbers)
 * in the -wal file until it is reused: copy them into the database and empty the file.
 * PostgreSQL has no such file to clean.
 *
 * The checkpoint thread (sqlite-checkpoints.ts) may be running a checkpoint of its own at that
 * moment, asked for by the migration's last commit. SQLite then answers at once, busy, without
 * waiting and without emptying the file (a busy handler is not called for the checkpoint lock):
 * it is asked again until it has emptied it. Seen in CI: a plain number left in the -wal file.
 */
async function dropOldPageImages<T>(db: Kysely<T>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
  const emptied = await retryWhile(
    async () => {
      const { rows } = await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db);
      return rows[0]?.busy === 0;
    },
    { isRetryable: (done) => !done, tries: TRUNCATE_TRIES, everyMs: TRUNCATE_PAUSE_MS },
  );
  if (!emptied) {
    throw new MigrationError(
      'The database file is in use: its write-ahead log could not be emptied',
    );
  }
}
