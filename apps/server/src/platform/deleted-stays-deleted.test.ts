import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION_PATH } from '@guquan/contract/account-deletion';
import type { ShareItems } from '@guquan/contract/share';
import { shareApiPath, type ShareKind } from '@guquan/contract/share-paths';
import { createRequest } from '../account-deletion/deletion-requests.ts';
import { runAccountDeletionJob } from '../account-deletion/deletion-job.ts';
import { readPhoneKeys } from '../crypto/phone-keys.ts';
import { phoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import {
  cabinetEvent,
  deliver,
  goodsEvent,
  noteEvent,
  pid,
  removal,
  userEvent,
} from '../test-support/platform-deliveries.ts';
import { buildTestApp, makeTempDataDir, TEST_PHONE_ENV } from '../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import {
  makeTestKey,
  signTestToken,
  startTestJwks,
  TEST_ISSUER,
  type TestJwksServer,
  type TestKey,
} from '../test-support/test-jwks.ts';

/**
 * A deleted account stays deleted (issue 37): whether the site's deletion job or the platform's
 * `user.deleted` deleted it, nothing the platform sends later brings back the account, its phone
 * number, its items or its tokens; its items answer 410; a note keeps its place without the
 * comment of a deleted user; and a delivery's answer says what it ignored, and why.
 */
let app: FastifyInstance;
let db: Db;
let jwks: TestJwksServer;
let key: TestKey;
let removeDataDir: () => Promise<void>;

beforeAll(async () => {
  const temp = await makeTempDataDir();
  key = await makeTestKey('ES256');
  jwks = await startTestJwks([key]);
  app = await buildTestApp({
    APP_MODE: 'production',
    PUBLIC_ORIGIN: 'https://www.example.com',
    DATA_DIR: temp.dataDir,
    PLATFORM_ISSUER: TEST_ISSUER,
    PLATFORM_JWKS_URL: jwks.url,
  });
  db = await openTestDataDirDatabase(temp.dataDir);
  removeDataDir = temp.remove;
});
afterAll(async () => {
  await app.close();
  await db.destroy();
  await jwks.close();
  await removeDataDir();
});

const DAY_MS = 24 * 60 * 60 * 1000;

async function status(kind: ShareKind, id: string): Promise<number> {
  const response = await app.inject({ method: 'GET', url: shareApiPath(kind, id) });
  return response.statusCode;
}

async function read<K extends ShareKind>(kind: K, id: string): Promise<ShareItems[K] | undefined> {
  const response = await app.inject({ method: 'GET', url: shareApiPath(kind, id) });
  return response.statusCode === 200 ? response.json<ShareItems[K]>() : undefined;
}

async function answered(events: unknown[]) {
  const response = await deliver(app, events);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<Record<string, unknown>>();
}

/** What the platform's token of `userId` gets from an endpoint that needs a user. */
async function tokenStatus(userId: string): Promise<number> {
  const token = await signTestToken(key, { sub: userId });
  const response = await app.inject({
    url: ACCOUNT_DELETION_PATH,
    headers: { authorization: `Bearer ${token}` },
  });
  return response.statusCode;
}

/** The site's own deletion of `userId`: a request confirmed 16 days ago, and the job's run. */
async function deleteBySite(userId: string): Promise<void> {
  const { id } = await db
    .selectFrom('users')
    .select('id')
    .where('public_id', '=', userId)
    .executeTakeFirstOrThrow();
  const now = new Date();
  await createRequest(db, id, new Date(now.getTime() - 16 * DAY_MS));
  const report = await runAccountDeletionJob(db, now);
  expect(report.deleted).toBe(1);
}

async function phoneHolders(phone: string): Promise<number> {
  const { keys } = readPhoneKeys(TEST_PHONE_ENV);
  if (!keys) throw new Error('The test phone key is missing');
  const phones = phoneProtection(keys);
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('phone_index', 'in', phones.indexes(phone))
    .execute();
  return rows.length;
}

describe('an account the site deleted', () => {
  it('does not come back with a newer user.upserted: no phone, no goods, no token', async () => {
    const user = pid('uz', 1);
    const goods = pid('gz', 1);
    const phone = '+8613700137000';
    await answered([userEvent(user, 1, { phone }), goodsEvent(goods, 1, user)]);
    expect(await tokenStatus(user)).toBe(200);
    await deleteBySite(user);

    const result = await answered([userEvent(user, 2, { phone }), goodsEvent(goods, 2, user)]);
    expect(result).toEqual({
      applied: 0,
      waiting: 0,
      ignored: 2,
      ignoredBecause: { not_newer: 0, unknown_type: 0, account_deleted: 2 },
    });
    expect(
      await db.selectFrom('users').select('id').where('public_id', '=', user).execute(),
    ).toEqual([]);
    expect(await phoneHolders(phone)).toBe(0);
    expect(await status('goods', goods)).toBe(410);
    expect(await tokenStatus(user)).toBe(401);
  });

  it('shows a note whose top comment is by that account, without the comment', async () => {
    const author = pid('uy', 1);
    const commenter = pid('uy', 2);
    const note = pid('ny', 1);
    await answered([userEvent(author, 1), userEvent(commenter, 1)]);
    await deleteBySite(commenter);
    await answered([noteEvent(note, 1, author, [commenter, author])]);
    expect((await read('note', note))?.topComments.map((c) => c.author.id)).toEqual([author]);
  });
});

describe('an account the platform deleted', () => {
  it('does not come back with a newer user.upserted', async () => {
    const user = pid('ux', 1);
    const phone = '+8613700137001';
    await answered([userEvent(user, 1, { phone })]);
    await answered([removal('user.deleted', user, 2)]);
    const result = await answered([userEvent(user, 3, { phone })]);
    expect(result).toMatchObject({
      applied: 0,
      ignored: 1,
      ignoredBecause: { account_deleted: 1 },
    });
    expect(await phoneHolders(phone)).toBe(0);
    expect(await tokenStatus(user)).toBe(401);
  });

  it('answers 410 for its goods, cabinets and notes', async () => {
    const user = pid('uw', 1);
    const [goods, cabinet, note] = [pid('gw', 1), pid('cw', 1), pid('nw', 1)];
    await answered([
      userEvent(user, 1),
      goodsEvent(goods, 1, user),
      cabinetEvent(cabinet, 1, user, [goods]),
      noteEvent(note, 1, user),
    ]);
    await answered([removal('user.deleted', user, 2)]);
    expect(await status('goods', goods)).toBe(410);
    expect(await status('cabinet', cabinet)).toBe(410);
    expect(await status('note', note)).toBe(410);
  });

  it('shows a note that waited for a commenter the platform then deleted, without the comment', async () => {
    const author = pid('uv', 1);
    const commenter = pid('uv', 2);
    const note = pid('nv', 1);
    await answered([userEvent(author, 1), noteEvent(note, 1, author, [commenter, author])]);
    expect(await status('note', note)).toBe(404);
    await answered([removal('user.deleted', commenter, 1)]);
    expect((await read('note', note))?.topComments.map((c) => c.author.id)).toEqual([author]);
  });
});

describe('an upsert after a removal', () => {
  for (const kind of ['goods', 'cabinet', 'note'] as const) {
    it(`of a ${kind}, newer, with its owner here: shown, and counted applied`, async () => {
      const owner = pid(`u${kind[0] ?? ''}`, 50);
      const id = pid(`${kind[0] ?? ''}r`, 1);
      const upsert = (version: number) =>
        kind === 'goods'
          ? goodsEvent(id, version, owner)
          : kind === 'cabinet'
            ? cabinetEvent(id, version, owner, [])
            : noteEvent(id, version, owner);
      await answered([userEvent(owner, 1), upsert(1)]);
      await answered([removal(`${kind}.removed`, id, 2)]);
      expect(await status(kind, id)).toBe(410);
      expect(await answered([upsert(3)])).toMatchObject({ applied: 1, ignored: 0 });
      expect(await status(kind, id)).toBe(200);
    });
    it(`of a ${kind}, newer, of an owner not here: counted waiting, not applied, while it is 410`, async () => {
      const owner = pid(`u${kind[0] ?? ''}`, 60);
      const later = pid(`u${kind[0] ?? ''}`, 61);
      const id = pid(`${kind[0] ?? ''}s`, 1);
      const upsert = (version: number, by: string) =>
        kind === 'goods'
          ? goodsEvent(id, version, by)
          : kind === 'cabinet'
            ? cabinetEvent(id, version, by, [])
            : noteEvent(id, version, by);
      await answered([userEvent(owner, 1), upsert(1, owner)]);
      await answered([removal(`${kind}.removed`, id, 2)]);
      expect(await answered([upsert(3, later)])).toMatchObject({
        applied: 0,
        waiting: 1,
        ignored: 0,
      });
      expect(await status(kind, id)).toBe(410);
      // Its owner arrives: the newer version is shown, as the platform asked.
      await answered([userEvent(later, 1)]);
      expect(await status(kind, id)).toBe(200);
    });
  }
});
