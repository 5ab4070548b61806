import { readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Kysely, Transaction } from 'kysely';
import { RETENTION, type RetainedKind } from '@guquan/contract/account-deletion';
import type { DataPaths } from '../config/data-paths.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import { forUpdate, lockKey, PLATFORM_COPY_LOCK } from '../db/locking.ts';
import { rememberRemoved, type GoneEntity } from '../db/platform-tombstones.ts';
import { JOB_LOCKS, runAlone, type RunAloneResult } from '../db/run-alone.ts';
import type { Database } from '../db/schema.ts';
import { deleteUserRows } from '../db/user-data.ts';
import type { Log } from '../http/logging.ts';
import { newPublicId } from '../db/public-id.ts';
import { imageInUse, type ImageColumn } from '../media/image-references.ts';
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
export const DELETED_NICKNAME = '已注销用户';

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

const retentionMonths = (kind: RetainedKind): number =>
  RETENTION.find((entry) => entry.kind === kind)?.months ?? 0;

function addMonths(iso: string | Date, months: number): string {
  const date = new Date(iso);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString();
}

type Outcome = { state: 'deleted' | 'blocked' | 'skipped' };

/**
 * Where the images of a user's content are, for every column that holds an image id
 * (media/image-references.ts): those the account's deletion may leave unused. Null for a column
 * whose images are not the user's content. A new image column does not compile until it is here.
 */
type ImagesOfUser = (trx: Transaction<Database>, userId: number) => Promise<{ image_id: number }[]>;

const USERS_IMAGES: Readonly<Record<ImageColumn, ImagesOfUser | null>> = {
  // Read with the user's row, which the job anonymizes (below).
  'users.avatar_image_id': null,
  'goods_images.image_id': (trx, userId) =>
    trx
      .selectFrom('goods_images')
      .select('image_id')
      .where('goods_id', 'in', trx.selectFrom('goods').select('id').where('owner_id', '=', userId))
      .execute(),
  'cabinets.cover_image_id': (trx, userId) =>
    trx
      .selectFrom('cabinets')
      .select('cover_image_id as image_id')
      .where('owner_id', '=', userId)
      .execute(),
  'note_images.image_id': (trx, userId) =>
    trx
      .selectFrom('note_images')
      .select('image_id')
      .where('note_id', 'in', trx.selectFrom('notes').select('id').where('author_id', '=', userId))
      .execute(),
  // The designs the user drew stay, retired, for those who redeemed them: their previews too.
  'designs.preview_image_id': null,
};

/** The account (by its platform id, kept hashed) and its goods, cabinets and notes, by public id. */
async function tombstonesOf(
  trx: Transaction<Database>,
  publicId: string,
  userId: number,
): Promise<GoneEntity[]> {
  const goods = await trx
    .selectFrom('goods')
    .select('public_id')
    .where('owner_id', '=', userId)
    .execute();
  const cabinets = await trx
    .selectFrom('cabinets')
    .select('public_id')
    .where('owner_id', '=', userId)
    .execute();
  const notes = await trx
    .selectFrom('notes')
    .select('public_id')
    .where('author_id', '=', userId)
    .execute();
  return [
    { type: 'user', id: publicId },
    ...goods.map((row): GoneEntity => ({ type: 'goods', id: row.public_id })),
    ...cabinets.map((row): GoneEntity => ({ type: 'cabinet', id: row.public_id })),
    ...notes.map((row): GoneEntity => ({ type: 'note', id: row.public_id })),
  ];
}

/**
 * What deleting an account does to its data, in the caller's transaction: copies what the law
 * keeps into `retained_records`, deletes the user's rows (db/user-data.ts), retires the designs
 * they drew, anonymizes the account row (已注销用户, no avatar or phone, a new public id), leaves
 * tombstones of the account and its items, and queues the files of images nothing uses any more. The deletion job calls it once a request's
 * cool-off is over; the platform's `user.deleted` (platform/) when the platform deleted the
 * account. Answers the encrypted phone the account had, for the notice.
 */
export async function anonymizeAccount(
  trx: Transaction<Database>,
  userId: number,
  now: Date,
): Promise<{ phoneEncrypted: string | null }> {
  const at = now.toISOString();
  const user = await trx
    .selectFrom('users')
    .select(['public_id', 'phone_encrypted', 'avatar_image_id'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const gone = await tombstonesOf(trx, user.public_id, userId);

  // Goods information, kept three years from publication, out of public view.
  const goodsRetention = retentionMonths('goods_and_transactions');
  const goods = await trx.selectFrom('goods').selectAll().where('owner_id', '=', userId).execute();
  const retained = goods
    .map((row) => ({ row, until: addMonths(row.created_at, goodsRetention) }))
    .filter(({ until }) => until > at);
  if (retained.length > 0) {
    await trx
      .insertInto('retained_records')
      .values(
        retained.map(({ row, until }) => ({
          user_id: userId,
          kind: 'goods' as const,
          payload: JSON.stringify({
            publicId: row.public_id,
            name: row.name,
            work: row.work,
            character: row.character,
            category: row.category,
            priceFen: row.price_fen,
            status: row.status,
            text: row.text,
            tags: JSON.parse(row.tags) as unknown,
            publishedAt: row.created_at,
            removedAt: row.removed_at,
          }),
          created_at: at,
          retain_until: until,
        })),
      )
      .execute();
  }

  // The images the user's content and avatar use.
  const imageIds = new Set<number>();
  for (const imagesOf of Object.values(USERS_IMAGES)) {
    if (imagesOf === null) continue;
    for (const row of await imagesOf(trx, userId)) imageIds.add(row.image_id);
  }
  if (user.avatar_image_id !== null) imageIds.add(user.avatar_image_id);

  // Everything the list of a user's data (db/user-data.ts) marks as deleted: the user's content
  // and the comments under it, codes, points and the designs redeemed with them
  // (the page says so), the membership's state. The App Store's payment records stay with the
  // anonymized account, as transaction records the law makes us keep. The balance on the
  // account's row goes to 0 with the anonymization below.
  await deleteUserRows(trx, userId);

  // Designs the user drew: those who redeemed one keep it, but nobody can redeem it any more.
  await trx
    .updateTable('designs')
    .set({ retired_at: at })
    .where('designer_id', '=', userId)
    .where('retired_at', 'is', null)
    .execute();

  await trx
    .updateTable('users')
    .set({
      public_id: newPublicId(),
      nickname: DELETED_NICKNAME,
      avatar_image_id: null,
      phone_encrypted: null,
      phone_index: null,
      points: 0,
      deleted_at: at,
    })
    .where('id', '=', userId)
    .execute();
  // What the site remembers of the account: that it is gone, and that its items are
  // (db/platform-tombstones.ts): nothing the platform sends brings them back, their pages say 410.
  await rememberRemoved(trx, gone, at);

  // Images nothing else uses any more: the row now, the file after the commit.
  for (const imageId of imageIds) {
    const stillUsed = await trx
      .selectFrom('images')
      .select('images.id')
      .where('images.id', '=', imageId)
      .where(imageInUse(trx))
      .executeTakeFirst();
    if (stillUsed) continue;
    const image = await trx
      .deleteFrom('images')
      .where('id', '=', imageId)
      .returning(['public_id', 'file_name'])
      .executeTakeFirst();
    if (image) {
      await trx
        .insertInto('media_deletions')
        .values({ image_public_id: image.public_id, file_name: image.file_name, queued_at: at })
        .execute();
    }
  }

  return { phoneEncrypted: user.phone_encrypted };
}

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
  const { phoneEncrypted } = await anonymizeAccount(trx, userId, now);

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
