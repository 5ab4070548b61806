import { readdir } from 'node:fs/promises';
import { plantFailingTrigger, removeFailingTrigger } from '../test-support/failing-trigger.ts';
import { afterEach, describe, expect, it } from 'vitest';
import { createShareReader, shareRepositories } from '../shares/share-reader.ts';
import { parseShareId } from '@guquan/contract/share-paths';
import { DEMO_IDS, type DemoUserKey } from '../demo/seed/demo-ids.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { createRequest } from './deletion-requests.ts';
import { DELETED_NICKNAME } from '../db/account-anonymization.ts';
import { runAccountDeletionJob } from './deletion-job.ts';
import type { SmsMessage } from './sms-sender.ts';
import { warningsLog } from '../test-support/warnings-log.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const REQUESTED = new Date('2025-12-01T08:00:00.000Z');
const DUE = new Date(REQUESTED.getTime() + 15 * DAY_MS + 1000);

let current: TestDatabase | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

async function setUp(): Promise<TestDatabase> {
  current = await openTestDatabase();
  return current;
}

async function userRow(t: TestDatabase, key: DemoUserKey) {
  return t.db
    .selectFrom('users')
    .selectAll()
    .where('public_id', '=', DEMO_IDS.users[key])
    .executeTakeFirstOrThrow();
}

async function request(t: TestDatabase, key: DemoUserKey, at = REQUESTED): Promise<number> {
  const user = await userRow(t, key);
  await createRequest(t.db, user.id, at);
  return user.id;
}

async function countOf(t: TestDatabase, table: 'goods' | 'cabinets' | 'notes' | 'comments') {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const NOTHING_LEFT = { goods: 0, cabinets: 0, notes: 0, comments: 0 };

/** Everything of a user the job must remove, counted. */
async function leftOf(t: TestDatabase, id: number) {
  const count = async (query: Promise<{ n: number | string }>) => Number((await query).n);
  return {
    goods: await count(
      t.db
        .selectFrom('goods')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', id)
        .executeTakeFirstOrThrow(),
    ),
    cabinets: await count(
      t.db
        .selectFrom('cabinets')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('owner_id', '=', id)
        .executeTakeFirstOrThrow(),
    ),
    notes: await count(
      t.db
        .selectFrom('notes')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('author_id', '=', id)
        .executeTakeFirstOrThrow(),
    ),
    comments: await count(
      t.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('author_id', '=', id)
        .executeTakeFirstOrThrow(),
    ),
  };
}

describe('runAccountDeletionJob', () => {
  it('waits for the cool-off, then deletes and anonymizes, keeping only what the law requires', async () => {
    const t = await setUp();
    const reader = createShareReader(shareRepositories(t.db));
    const before = await userRow(t, 'yuyuan');
    const id = await request(t, 'yuyuan');
    const othersGoods = (await countOf(t, 'goods')) - (await leftOf(t, id)).goods;
    const filesBefore = await readdir(t.paths.media);
    const sent: SmsMessage[] = [];
    const sms = { send: (message: SmsMessage) => Promise.resolve(void sent.push(message)) };

    const early = await runAccountDeletionJob(t.db, new Date(DUE.getTime() - 2000), {
      paths: t.paths,
      sms,
    });
    expect(early).toMatchObject({ deleted: 0, failed: 0 });
    // Still there, but out of public view during the cool-off (privacy policy 11.5).
    expect(await countOf(t, 'goods')).toBe(othersGoods + (await leftOf(t, id)).goods);
    expect((await reader.read('goods', parseShareId(DEMO_IDS.goods.gallery))).state).toBe(
      'not_found',
    );

    const report = await runAccountDeletionJob(t.db, DUE, {
      paths: t.paths,
      sms,
      phones: t.phones,
    });
    expect(report).toMatchObject({ deleted: 1, blocked: 0, failed: 0 });
    expect(await leftOf(t, id)).toEqual(NOTHING_LEFT);
    expect(await countOf(t, 'goods')).toBe(othersGoods);
    const redemptions = await t.db
      .selectFrom('redemptions')
      .select('user_id')
      .where('user_id', '=', id)
      .execute();
    expect(redemptions).toEqual([]);

    const after = await t.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(after).toMatchObject({
      nickname: DELETED_NICKNAME,
      avatar_image_id: null,
      phone_encrypted: null,
      phone_index: null,
      points: 0,
      deleted_at: DUE.toISOString(),
    });
    expect(after.public_id).not.toBe(before.public_id);

    // The shares are gone for good (410, docs/platform.md), and so are the images and their files.
    for (const [kind, shareId] of [
      ['goods', DEMO_IDS.goods.gallery],
      ['cabinet', DEMO_IDS.cabinets.main],
    ] as const) {
      expect((await reader.read(kind, parseShareId(shareId))).state).toBe('removed');
    }
    const filesAfter = await readdir(t.paths.media);
    expect(filesAfter.length).toBeLessThan(filesBefore.length);
    const images = await t.db.selectFrom('images').select('file_name').execute();
    expect(filesAfter.sort()).toEqual(images.map((image) => image.file_name).sort());
    expect(await t.db.selectFrom('media_deletions').selectAll().execute()).toEqual([]);

    // Kept by law: goods information for three years from publication, and the request.
    const retained = await t.db.selectFrom('retained_records').selectAll().execute();
    expect(retained.length).toBeGreaterThan(0);
    for (const record of retained) {
      expect(record.user_id).toBe(id);
      const payload = JSON.parse(record.payload) as { publishedAt: string };
      const until = new Date(payload.publishedAt);
      until.setUTCMonth(until.getUTCMonth() + 36);
      expect(record.retain_until).toBe(until.toISOString());
    }
    const done = await t.db
      .selectFrom('account_deletion_requests')
      .selectAll()
      .where('user_id', '=', id)
      .execute();
    expect(done).toMatchObject([{ completed_at: DUE.toISOString(), cancelled_at: null }]);
    expect(sent).toEqual([{ kind: 'account_deleted', phone: '+8613800000001' }]);

    // Twice is harmless.
    const snapshot = await t.db.selectFrom('users').selectAll().execute();
    const second = await runAccountDeletionJob(t.db, new Date(DUE.getTime() + 60_000), {
      paths: t.paths,
      sms,
    });
    expect(second).toMatchObject({ deleted: 0, failed: 0, purged: 0 });
    expect(await t.db.selectFrom('users').selectAll().execute()).toEqual(snapshot);
    expect(await t.db.selectFrom('retained_records').selectAll().execute()).toEqual(retained);
    expect(sent).toHaveLength(1);

    // Later, what has outlived its period goes: the request after six months, goods after three years.
    const sixMonthsOn = new Date(DUE);
    sixMonthsOn.setUTCMonth(sixMonthsOn.getUTCMonth() + 6);
    await runAccountDeletionJob(t.db, sixMonthsOn, { paths: t.paths });
    expect(
      await t.db
        .selectFrom('account_deletion_requests')
        .selectAll()
        .where('user_id', '=', id)
        .execute(),
    ).toEqual([]);
    const fourYearsOn = new Date(DUE.getTime() + 4 * 365 * DAY_MS);
    await runAccountDeletionJob(t.db, fourYearsOn, { paths: t.paths });
    expect(await t.db.selectFrom('retained_records').selectAll().execute()).toEqual([]);
  });

  it('keeps an image another reference still uses, a design preview among them', async () => {
    const t = await setUp();
    const id = await request(t, 'yuyuan');
    // The leaving user's avatar is also the preview of a design someone else drew.
    const design = await t.db
      .selectFrom('designs')
      .innerJoin('images', 'images.id', 'designs.preview_image_id')
      .select(['designs.preview_image_id', 'images.file_name'])
      .where('designs.designer_id', '!=', id)
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('users')
      .set({ avatar_image_id: design.preview_image_id })
      .where('id', '=', id)
      .execute();

    const report = await runAccountDeletionJob(t.db, DUE, { paths: t.paths });
    expect(report).toMatchObject({ deleted: 1, failed: 0 });
    const image = await t.db
      .selectFrom('images')
      .select('id')
      .where('id', '=', design.preview_image_id)
      .executeTakeFirst();
    expect(image).toBeDefined();
    expect(await readdir(t.paths.media)).toContain(design.file_name);
  });

  it('deletes an image whose file never arrived from the platform, and no other file', async () => {
    const t = await setUp();
    const id = await request(t, 'yuyuan');
    // The leaving user's avatar is still being fetched: a row without a file.
    const waiting = await t.db
      .insertInto('images')
      .values({
        public_id: 'waitingAvatar001',
        width: 64,
        height: 64,
        alt: '',
        file_name: '',
        created_at: REQUESTED.toISOString(),
        source_url: 'https://media.platform.example/avatar.jpg',
        state: 'waiting',
        fetch_after: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .updateTable('users')
      .set({ avatar_image_id: waiting.id })
      .where('id', '=', id)
      .execute();
    const before = await readdir(t.paths.media);

    const report = await runAccountDeletionJob(t.db, DUE, { paths: t.paths });
    expect(report).toMatchObject({ deleted: 1, failed: 0 });
    expect(await t.db.selectFrom('media_deletions').selectAll().execute()).toEqual([]);
    const left = await readdir(t.paths.media);
    expect(left.length).toBeGreaterThan(0);
    expect(before).toEqual(expect.arrayContaining(left));
  });

  it("ends a member's membership but keeps the App Store's payment records", async () => {
    const t = await setUp();
    const id = await request(t, 'satoru');
    const payments = await t.db
      .selectFrom('app_store_transactions')
      .selectAll()
      .where('user_id', '=', id)
      .execute();
    expect(payments.length).toBeGreaterThan(0);
    expect(await runAccountDeletionJob(t.db, DUE, { paths: t.paths })).toMatchObject({
      deleted: 1,
    });
    for (const table of ['memberships', 'app_account_tokens'] as const) {
      const rows = await t.db
        .selectFrom(table)
        .select('user_id')
        .where('user_id', '=', id)
        .execute();
      expect(rows, table).toEqual([]);
    }
    expect(
      await t.db
        .selectFrom('app_store_transactions')
        .selectAll()
        .where('user_id', '=', id)
        .execute(),
    ).toEqual(payments);
  });

  it('deletes each account once when two servers run the job at the same time', async () => {
    const t = await setUp();
    const users = await Promise.all(
      (['satoru', 'chigu', 'conductor'] as const).map((key) => request(t, key)),
    );
    const sent: SmsMessage[] = [];
    const sms = { send: (message: SmsMessage) => Promise.resolve(void sent.push(message)) };
    const reports = await Promise.all(
      [1, 2].map(() => runAccountDeletionJob(t.db, DUE, { paths: t.paths, sms, phones: t.phones })),
    );
    const total = (key: 'deleted' | 'failed') =>
      reports.reduce((sum, report) => sum + report[key], 0);
    expect(total('deleted')).toBe(users.length);
    expect(total('failed')).toBe(0);
    // One text per deleted account, not one per server.
    expect(sent).toHaveLength(users.length);
    for (const id of users) expect(await leftOf(t, id)).toEqual(NOTHING_LEFT);
    const again = await runAccountDeletionJob(t.db, DUE, { paths: t.paths, sms, phones: t.phones });
    expect(again).toMatchObject({ deleted: 0, failed: 0 });
  });

  it('leaves a user whose deletion fails half-way untouched, and finishes the others', async () => {
    const t = await setUp();
    const failing = await request(t, 'satoru');
    const other = await request(t, 'chigu');
    const before = await leftOf(t, failing);
    const goodsBefore = await t.db
      .selectFrom('goods')
      .selectAll()
      .where('owner_id', '=', failing)
      .execute();
    // The last step of this user's deletion fails, after everything else of theirs was deleted.
    const fault = { name: 'fail_one', table: 'users' };
    await plantFailingTrigger(t.db, {
      ...fault,
      event: 'update',
      column: 'nickname',
      rowId: failing,
      message: 'disk full',
    });

    const logged: string[] = [];
    const report = await runAccountDeletionJob(t.db, DUE, {
      paths: t.paths,
      log: warningsLog(logged),
    });
    expect(report).toMatchObject({ deleted: 1, failed: 1 });
    expect(logged.join()).toMatch(/untouched/);
    // (Their comments under the other user's notes went with those notes.)
    expect({ ...(await leftOf(t, failing)), comments: 0 }).toEqual({ ...before, comments: 0 });
    expect((await leftOf(t, failing)).comments).toBeGreaterThan(0);
    expect(
      await t.db.selectFrom('goods').selectAll().where('owner_id', '=', failing).execute(),
    ).toEqual(goodsBefore);
    expect((await userRow(t, 'satoru')).deleted_at).toBeNull();
    expect(
      await t.db
        .selectFrom('retained_records')
        .selectAll()
        .where('user_id', '=', failing)
        .execute(),
    ).toEqual([]);
    expect((await leftOf(t, other)).goods).toBe(0);

    // Once the fault is gone, the next run finishes the job.
    await removeFailingTrigger(t.db, fault);
    expect(await runAccountDeletionJob(t.db, DUE, { paths: t.paths })).toMatchObject({
      deleted: 1,
      failed: 0,
    });
    expect((await leftOf(t, failing)).goods).toBe(0);
  });

  it('skips a request cancelled by a log-in and one blocked by a case opened in the cool-off', async () => {
    const t = await setUp();
    const cancelled = await request(t, 'conductor');
    await t.db
      .updateTable('account_deletion_requests')
      .set({ cancelled_at: REQUESTED.toISOString(), cancel_reason: 'login' })
      .where('user_id', '=', cancelled)
      .execute();
    const blocked = await request(t, 'beika');
    await t.db
      .insertInto('account_cases')
      .values({
        user_id: blocked,
        kind: 'under_investigation',
        title: '调查中',
        status: 'open',
        opened_at: REQUESTED.toISOString(),
        closed_at: null,
      })
      .execute();
    const report = await runAccountDeletionJob(t.db, DUE, { paths: t.paths });
    expect(report).toMatchObject({ deleted: 0, blocked: 1, failed: 0 });
    expect((await userRow(t, 'conductor')).deleted_at).toBeNull();
    expect((await userRow(t, 'beika')).deleted_at).toBeNull();
  });

  it('keeps the deletion notice, encrypted, until the provider takes it', async () => {
    const t = await setUp();
    const id = await request(t, 'chigu');
    let down = true;
    const sent: SmsMessage[] = [];
    const sms = {
      send: (message: SmsMessage) =>
        down
          ? Promise.reject(new Error('provider down'))
          : Promise.resolve(void sent.push(message)),
    };
    const first = await runAccountDeletionJob(t.db, DUE, { paths: t.paths, sms, phones: t.phones });
    expect(first).toMatchObject({ deleted: 1, notices: { sent: 0, retrying: 1, failed: 0 } });
    // The account has no number left; the outbox has it, encrypted, in the same commit.
    const anonymized = await t.db
      .selectFrom('users')
      .select(['phone_encrypted', 'phone_index'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(anonymized).toEqual({ phone_encrypted: null, phone_index: null });
    const owed = await t.db
      .selectFrom('outbox')
      .selectAll()
      .where('channel', '=', 'text')
      .executeTakeFirstOrThrow();
    expect(t.phones.decrypt(owed.payload ?? '')).toBe('+8613800000004');

    down = false;
    const later = new Date(DUE.getTime() + 60 * 60 * 1000);
    const second = await runAccountDeletionJob(t.db, later, {
      paths: t.paths,
      sms,
      phones: t.phones,
    });
    expect(second).toMatchObject({ deleted: 0, notices: { sent: 1 } });
    expect(sent).toEqual([{ kind: 'account_deleted', phone: '+8613800000004' }]);
  });
});
