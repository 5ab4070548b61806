import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import type { DataPaths } from '../config/data-paths.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { forUpdate, lockKey, PLATFORM_COPY_LOCK } from '../db/locking.ts';
import { addMonths, anonymizeAccount, retentionMonths } from '../db/account-anonymization.ts';
import { JOB_LOCKS, runAlone, type RunAloneResult } from '../db/run-alone.ts';
import type { Database } from '../db/schema.ts';
import type { Log } from '../http/logging.ts';
import { accountImages } from '../media/image-references.ts';
import { findBlockers } from './deletion-requests.ts';
import { purgeFinishedOutbox } from '../outbox/outbox-repository.ts';
import { queuePlatformEvent } from '../outbox/platform-events-out.ts';
import { deliverTexts, queueText, type TextDeliveryReport } from '../outbox/text-channel.ts';
import type { SmsSender } from './sms-sender.ts';

/**
 * The deletion job: for every request whose cool-off has passed, one transaction deletes the
 * user's content and codes, anonymizes the account row (nickname 已注销用户, no avatar,
 * no phone, no points, a new public id) and keeps only what the law requires (privacy policy 8.2 and 11.5):
 * goods information for three years from publication, in `retained_records`, out of public view.
 * A crash leaves each user either done or untouched, and running it again does nothing more.
 * Image files go after their rows, through a queue, so a crash between the two leaves no file
 * behind for ever. The deletion notice and the platform's `account.deleted` are queued in the
 * user's transaction (outbox/) and delivered after it commits. Then it purges what has outlived
 * its period.
 */

/** How often each server runs it (account-deletion-plugin.ts). */
export const DELETION_JOB_INTERVAL_MS = 60 * 60 * 1000;

export interface DeletionJobOptions {
  /** Where image originals and their resized copies are removed from. */
  paths?: Pick<DataPaths, 'media' | 'mediaCache'>;
  /** Tells each deleted user by SMS (privacy policy 11.5 item 4), through the text outbox. */
  sms?: SmsSender;
  /** Decrypts the number the notice goes to. */
  phones?: PhoneProtection;
  /** The server's logger (app.log), or a command's. */
  log?: Log;
  /**
   * Called before each account and before the clean-up: rejects to stop the run (run-alone.ts:
   * the job's lock was lost with its connection).
   */
  checkpoint?: () => Promise<void>;
}

export interface DeletionJobReport {
  deleted: number;
  /** Due, but an open case blocks it (an investigation opened during the cool-off). */
  blocked: number;
  failed: number;
  purged: number;
  /** Deletion notices sent, to be retried, and given up (this run's and earlier runs'). */
  notices: TextDeliveryReport;
}

type Outcome = { state: 'deleted' | 'blocked' | 'skipped' };

async function deleteOneAccount(
  trx: Transaction<Database>,
  requestId: number,
  userId: number,
  now: Date,
): Promise<Outcome> {
  const at = now.toISOString();
  // One writer of the platform's copy at a time: a delivery sees the account's tombstone, or
  // waits for it (never a user.upserted half-way through the account's deletion).
  await lockKey(trx, PLATFORM_COPY_LOCK);
  // Locked until this transaction ends: a log-in that withdraws the request (or the job on
  // another server) waits for it, then finds it completed; one that committed first is seen here.
  const request = await forUpdate(
    trx,
    trx
      .selectFrom('account_deletion_requests')
      .select('id')
      .where('id', '=', requestId)
      .where('cancelled_at', 'is', null)
      .where('completed_at', 'is', null)
      .where('deletes_at', '<=', at),
  ).executeTakeFirst();
  if (!request) return { state: 'skipped' }; // cancelled or done meanwhile
  if ((await findBlockers(trx, userId)).length > 0) return { state: 'blocked' };

  const { public_id: userPublicId } = await trx
    .selectFrom('users')
    .select('public_id')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const { phoneEncrypted } = await anonymizeAccount(trx, userId, now, accountImages);

  const done = await trx
    .updateTable('account_deletion_requests')
    .set({ completed_at: at })
    .where('id', '=', requestId)
    .where('completed_at', 'is', null)
    .where('cancelled_at', 'is', null)
    .executeTakeFirst();
  // Another server finished or a log-in cancelled it meanwhile: undo this run for the user.
  if (Number(done.numUpdatedRows) !== 1) throw new Error('The deletion request changed meanwhile');
  // The notice goes after the commit, through the outbox; the number stays encrypted there.
  if (phoneEncrypted !== null) {
    await queueText(trx, { kind: 'account_deleted', phoneEncrypted }, now);
  }
  // The platform deletes its own data of the account once it hears (PRODUCT.md, "Events out").
  await queuePlatformEvent(
    trx,
    { type: 'account.deleted', data: { userId: userPublicId, deletedAt: at } },
    now,
  );
  return { state: 'deleted' };
}

/** Removes the image files whose rows are gone, originals and resized copies. */
async function removeQueuedMedia(
  db: Kysely<Database>,
  paths: Pick<DataPaths, 'media' | 'mediaCache'>,
): Promise<number> {
  const queued = await db.selectFrom('media_deletions').selectAll().execute();
  for (const entry of queued) {
    // An image still being fetched from the platform has no file yet ('' would name the folder).
    if (entry.file_name !== '') {
      await rm(join(paths.media, basename(entry.file_name)), { force: true });
    }
    const cacheDir = join(paths.mediaCache, basename(entry.image_public_id.slice(0, 2)));
    const cached = await readdir(cacheDir).catch(() => [] as string[]);
    for (const name of cached) {
      if (name.startsWith(`${entry.image_public_id}-`)) {
        await rm(join(cacheDir, name), { force: true });
      }
    }
    await db.deleteFrom('media_deletions').where('id', '=', entry.id).execute();
  }
  return queued.length;
}

/** Deletes what has outlived its period (privacy policy 8.2). */
async function purgeExpired(db: Kysely<Database>, now: Date): Promise<number> {
  const at = now.toISOString();
  let purged = 0;
  const count = (result: { numDeletedRows: bigint }) => {
    purged += Number(result.numDeletedRows);
  };
  count(
    await db
      .deleteFrom('retained_records')
      .where('retain_until', '<=', at)
      .executeTakeFirstOrThrow(),
  );
  const requestsBefore = addMonths(now, -retentionMonths('deletion_request'));
  count(
    await db
      .deleteFrom('account_deletion_requests')
      .where((eb) =>
        eb.or([eb('completed_at', '<=', requestsBefore), eb('cancelled_at', '<=', requestsBefore)]),
      )
      .executeTakeFirstOrThrow(),
  );
  const casesBefore = addMonths(now, -retentionMonths('reports_and_appeals'));
  count(
    await db
      .deleteFrom('account_cases')
      .where('status', '=', 'closed')
      .where('closed_at', '<=', casesBefore)
      .where(
        'user_id',
        'in',
        db.selectFrom('users').select('id').where('deleted_at', 'is not', null),
      )
      .executeTakeFirstOrThrow(),
  );
  purged += await purgeFinishedOutbox(db, now);
  // A day of codes is all the send limits look at.
  const codesBefore = new Date(now.getTime() - 24 * 60 * 60 * 1000).toISOString();
  count(
    await db
      .deleteFrom('sms_codes')
      .where('created_at', '<=', codesBefore)
      .executeTakeFirstOrThrow(),
  );
  return purged;
}

export async function runAccountDeletionJob(
  db: Kysely<Database>,
  now: Date,
  options: DeletionJobOptions = {},
): Promise<DeletionJobReport> {
  const report: DeletionJobReport = {
    deleted: 0,
    blocked: 0,
    failed: 0,
    purged: 0,
    notices: { sent: 0, retrying: 0, failed: 0 },
  };
  const due = await db
    .selectFrom('account_deletion_requests')
    .select(['id', 'user_id'])
    .where('cancelled_at', 'is', null)
    .where('completed_at', 'is', null)
    .where('deletes_at', '<=', now.toISOString())
    .orderBy('deletes_at')
    .execute();
  const checkpoint = options.checkpoint ?? (() => Promise.resolve());
  for (const request of due) {
    await checkpoint();
    try {
      const outcome = await db
        .transaction()
        .execute((trx) => deleteOneAccount(trx, request.id, request.user_id, now));
      if (outcome.state === 'deleted') {
        report.deleted += 1;
      } else if (outcome.state === 'blocked') {
        report.blocked += 1;
        options.log?.warn({ requestId: request.id }, 'account deletion blocked by an open case');
      }
    } catch (error) {
      // The database went away (a cut connection, a restart): this account's transaction rolled
      // back, and the next ones would fail alike. Stop; the next run takes them all up again.
      if (isDatabaseUnavailable(error)) throw error;
      report.failed += 1;
      options.log?.warn(
        { requestId: request.id, error },
        'account deletion failed; the account is untouched',
      );
    }
  }
  await checkpoint();
  if (options.paths) await removeQueuedMedia(db, options.paths);
  if (options.sms && options.phones) {
    report.notices = await deliverTexts(db, {
      sms: options.sms,
      phones: options.phones,
      now,
      log: options.log,
    });
  }
  report.purged = await purgeExpired(db, now);
  return report;
}

/**
 * The job as the servers (hourly) and `npm run delete-accounts` run it: one at a time across
 * servers (db/run-alone.ts), stopping before the next account once its lock is lost.
 */
export function runAccountDeletionJobAlone(
  db: Kysely<Database>,
  engine: 'sqlite' | 'postgres',
  options: Omit<DeletionJobOptions, 'checkpoint'>,
): Promise<RunAloneResult<DeletionJobReport>> {
  return runAlone(db, engine, JOB_LOCKS.accountDeletion, ({ checkpoint }) =>
    runAccountDeletionJob(db, new Date(), { ...options, checkpoint }),
  );
}
