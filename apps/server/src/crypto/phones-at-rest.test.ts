import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ACCOUNT_DELETION_CODE_PATH,
  ACCOUNT_DELETION_PATH,
  DEMO_LATEST_SMS_PATH,
} from '@guquan/contract/account-deletion';
import { dataPaths } from '../config/data-paths.ts';
import { openSqliteDatabase } from '../db/database.ts';
import { migrateToLatest, migrations } from '../db/migrations.ts';
import { newPublicId } from '../db/public-id.ts';
import { DEMO_PHONES } from '../demo/seed/demo-account-deletion.ts';
import { buildTestAppWithDb, logIn, type TestAppWithDb } from '../test-support/design-test-app.ts';
import { makeTempDataDir } from '../test-support/test-app.ts';
import { loadPhoneProtection } from './phone-keys.ts';

/** The bytes of the database and its write-ahead log, as a thief with a copy would have them. */
async function rawDatabase(dataDir: string): Promise<string> {
  const file = dataPaths(dataDir).database;
  const parts = await Promise.all(
    [file, `${file}-wal`].map((path) => readFile(path).catch(() => Buffer.alloc(0))),
  );
  return Buffer.concat(parts).toString('latin1');
}

const NUMBERS = Object.values(DEMO_PHONES);

let started: TestAppWithDb | undefined;
afterEach(async () => {
  await started?.close();
  started = undefined;
});

describe('phone numbers at rest', () => {
  // A seeded server built and its files read: slow on a busy machine.
  it(
    'are nowhere in the database files of a seeded server in use',
    { timeout: 120_000 },
    async () => {
      started = await buildTestAppWithDb();
      const { app } = started;
      // Use the numbers: a code is sent, confirmed, the request cancelled, another code sent.
      const authorization = `Bearer ${await logIn(app, 'satoru')}`;
      const sent = await app.inject({
        method: 'POST',
        url: ACCOUNT_DELETION_CODE_PATH,
        headers: { authorization },
      });
      expect(sent.statusCode).toBe(201);
      // Read back from the stored number, masked.
      expect(sent.json<{ maskedPhone: string }>().maskedPhone).toBe('138****0002');
      const { code } = (
        await app.inject({ url: DEMO_LATEST_SMS_PATH, headers: { authorization } })
      ).json<{ code: string }>();
      const confirmed = await app.inject({
        method: 'POST',
        url: ACCOUNT_DELETION_PATH,
        headers: { authorization },
        payload: { code, confirm: true },
      });
      expect(confirmed.statusCode).toBe(201);
      // (No read with this token after the confirmation: a token issued in an earlier second is
      // revoked by it, as another device's would be; the page asks the app for a fresh one.)

      const raw = await rawDatabase(started.dataDir);
      expect(raw.length).toBeGreaterThan(10_000);
      for (const number of NUMBERS) expect(raw.includes(number), number).toBe(false);
      // The numbers are there, encrypted: the app's key reads them back.
      const stored = await started.db.selectFrom('users').select('phone_encrypted').execute();
      const readable = stored.flatMap((row) =>
        row.phone_encrypted ? [started?.phones.decrypt(row.phone_encrypted)] : [],
      );
      // As the platform sends them (E.164); a national number is in its E.164 form, so the raw
      // files were searched for both above.
      expect(readable.sort()).toEqual(NUMBERS.map((number) => `+86${number}`).sort());
    },
  );

  it('are encrypted by the migration, and the plain ones leave no trace in the files', async () => {
    await migrateOldNumbers({ busyCheckpoints: false });
  });

  // The checkpoint thread may be in a checkpoint of its own when the migration empties the WAL;
  // SQLite then answers busy at once (CI, once: a plain number left in the -wal file).
  it('leave no trace either while another connection checkpoints all the time', async () => {
    await migrateOldNumbers({ busyCheckpoints: true });
  });
});

/** Checkpoints, one after another, on a thread and connection of their own, until stopped. */
function checkpointsWithoutPause(file: string): { stop(): Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const stopped = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { workerData } = require('node:worker_threads');
     const db = new (require(workerData.driver))(workerData.file);
     while (Atomics.load(workerData.stopped, 0) === 0) db.pragma('wal_checkpoint(PASSIVE)');
     db.close();`,
    { eval: true, workerData: { driver, file, stopped } },
  );
  return {
    async stop() {
      Atomics.store(stopped, 0, 1);
      await new Promise((resolve) => worker.once('exit', resolve));
    },
  };
}

async function migrateOldNumbers({ busyCheckpoints }: { busyCheckpoints: boolean }) {
  const temp = await makeTempDataDir();
  const paths = dataPaths(temp.dataDir);
  const phones = await loadPhoneProtection(null, paths.phoneKey);
  const db = openSqliteDatabase(paths.database);
  try {
    // A database as the version before kept it: plain numbers on users and codes.
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ ...migrations({ phones }) }) },
    });
    expect((await migrator.migrateTo('0005-account-deletion')).error).toBeUndefined();
    const now = new Date().toISOString();
    for (const number of NUMBERS) {
      // Written as the old schema had it (the typed schema no longer has these columns).
      const user = await sql<{ id: number }>`
          insert into users (public_id, nickname, avatar_image_id, created_at, phone)
          values (${newPublicId()}, 'n', null, ${now}, ${number}) returning id`.execute(db);
      await sql`
          insert into sms_codes (user_id, phone, purpose, code_hash, created_at, expires_at)
          values (${user.rows[0]?.id}, ${number}, 'account_deletion', 'x:y', ${now}, ${now})`.execute(
        db,
      );
    }
    expect((await rawDatabase(temp.dataDir)).includes(NUMBERS[0] ?? '?')).toBe(true);

    const checkpointing = busyCheckpoints ? checkpointsWithoutPause(paths.database) : undefined;
    try {
      await migrateToLatest(db, { phones });
    } finally {
      await checkpointing?.stop();
    }

    const raw = await rawDatabase(temp.dataDir);
    for (const number of NUMBERS) expect(raw.includes(number), number).toBe(false);
    const users = await db
      .selectFrom('users')
      .select(['phone_encrypted', 'phone_index'])
      .orderBy('id')
      .execute();
    expect(users.map((row) => phones.decrypt(row.phone_encrypted ?? '')).sort()).toEqual(
      [...NUMBERS].sort(),
    );
    expect(users.map((row) => row.phone_index)).toEqual(
      NUMBERS.map((number) => phones.index(number)),
    );
    const codes = await db.selectFrom('sms_codes').select('phone_index').orderBy('id').execute();
    expect(codes.map((row) => row.phone_index)).toEqual(
      NUMBERS.map((number) => phones.index(number)),
    );
  } finally {
    await db.destroy();
    await temp.remove();
  }
}
