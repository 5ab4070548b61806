import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOODS_STATUSES } from '@guquan/contract/share';
import { PUBLIC_ID_PATTERN } from '@guquan/contract/share-paths';
import { TEST_PLATFORM_ENV, buildTestApp, makeTempDataDir } from '../../test-support/test-app.ts';
import { openTestDataDirDatabase } from '../../test-support/test-engine.ts';
import { dataPaths } from '../../config/data-paths.ts';
import type { Db } from '../../db/database.ts';
import { countRows, liveTables } from '../../test-support/live-schema.ts';
import { DEMO_IDS } from './demo-ids.ts';
import { isEmpty, wipeData } from './seed.ts';
import { seedSiteDemoRecords } from './site-demo-records.ts';

let temp: { dataDir: string; remove: () => Promise<void> };
let data: { db: Db; paths: ReturnType<typeof dataPaths> };
beforeAll(async () => {
  temp = await makeTempDataDir();
  // A demo server's first start: the stand-in's events through the events route (buildTestApp).
  await (await buildTestApp({ DATA_DIR: temp.dataDir })).close();
  data = { db: await openTestDataDirDatabase(temp.dataDir), paths: dataPaths(temp.dataDir) };
});
afterAll(async () => {
  await data.db.destroy();
  await temp.remove();
});

async function counts() {
  const { db } = data;
  const count = async (table: 'users' | 'goods' | 'cabinets' | 'notes' | 'comments' | 'images') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await count('users'),
    goods: await count('goods'),
    cabinets: await count('cabinets'),
    notes: await count('notes'),
    comments: await count('comments'),
    images: await count('images'),
  };
}

describe('demo data', () => {
  it('arrives from the stand-in once; a second start leaves it alone', async () => {
    const first = await counts();
    await (await buildTestApp({ DATA_DIR: temp.dataDir })).close();
    expect(await counts()).toEqual(first);
    expect(first.users).toBeGreaterThanOrEqual(6);
    expect(first.goods).toBeGreaterThanOrEqual(36);
    expect(first.cabinets).toBeGreaterThanOrEqual(4);
    expect(first.notes).toBeGreaterThanOrEqual(6);
    // Every image fetched from the stand-in's media origin: one original each, nothing else.
    const waiting = await data.db
      .selectFrom('images')
      .select('id')
      .where('state', '!=', 'ready')
      .execute();
    expect(waiting).toEqual([]);
    expect(await readdir(data.paths.media)).toHaveLength(first.images);
  });

  it("writes the site's own demo records once", async () => {
    const member = await data.db.selectFrom('app_store_transactions').select('id').execute();
    expect(member).toHaveLength(1);
    expect(await countRows(data.db, 'redemptions')).toBe(1);
    expect(await countRows(data.db, 'share_funnel_days')).toBeGreaterThan(0);
    expect(await seedSiteDemoRecords(data.db)).toBe(false);
    expect(await countRows(data.db, 'redemptions')).toBe(1);
  });

  it("writes the site's records on a later start when a server stopped before writing them", async () => {
    // What a server that stopped between the community's arrival and its own records leaves.
    for (const table of [
      'redemptions',
      'memberships',
      'app_store_transactions',
      'app_account_tokens',
      'share_funnel_days',
    ] as const) {
      await data.db.deleteFrom(table).execute();
    }
    const app = await buildTestApp({ DATA_DIR: temp.dataDir });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const deadline = Date.now() + 10_000;
      while ((await countRows(data.db, 'app_store_transactions')) === 0 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await countRows(data.db, 'app_store_transactions')).toBe(1);
      expect(await countRows(data.db, 'redemptions')).toBe(1);
      const health = await app.inject({ url: '/anime_merch_web/api/v1/health' });
      expect(health.statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('wipes (npm run seed), and the next start receives the same community', async () => {
    const before = await counts();
    // What a running server adds besides the seed: WeChat's tokens, Apple's notifications.
    const at = new Date().toISOString();
    await data.db
      .insertInto('wechat_credentials')
      .values({
        kind: 'access_token',
        app_id: 'wx0123456789abcdef',
        value: 'token',
        expires_at: at,
        lease_token: null,
        lease_until: null,
        updated_at: at,
      })
      .execute();
    await data.db
      .insertInto('app_store_notifications')
      .values({
        notification_uuid: '0f0e0d0c-0b0a-4908-8706-050403020100',
        notification_type: 'DID_RENEW',
        subtype: null,
        received_at: at,
      })
      .execute();
    await wipeData(data.db, data.paths);
    expect(await isEmpty(data.db)).toBe(true);
    // Every table is empty but the schema's own rows (the plans on sale).
    const left: Record<string, number> = {};
    for (const table of await liveTables(data.db)) {
      const rows = await countRows(data.db, table);
      if (rows > 0) left[table] = rows;
    }
    expect(Object.keys(left)).toEqual(['membership_plans']);
    await (await buildTestApp({ DATA_DIR: temp.dataDir })).close();
    expect(await counts()).toEqual(before);
    expect(await readdir(data.paths.media)).toHaveLength(before.images);
    // A limit for a hang, not a speed: a wipe and a whole demo start, slow on a loaded machine.
  }, 300_000);

  it('comes from nowhere on a demo server given a platform (PLATFORM_*)', async () => {
    const other = await makeTempDataDir();
    try {
      await (await buildTestApp({ DATA_DIR: other.dataDir, ...TEST_PLATFORM_ENV })).close();
      const db = await openTestDataDirDatabase(other.dataDir);
      expect(await isEmpty(db)).toBe(true);
      await db.destroy();
    } finally {
      await other.remove();
    }
  });

  it('covers the works, categories and statuses the pages show', async () => {
    const goods = await data.db
      .selectFrom('goods')
      .select(['work', 'category', 'status'])
      .execute();
    expect(new Set(goods.map((row) => row.work)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(goods.map((row) => row.category))).toEqual(
      new Set(['吧唧', '立牌', '色纸', '镭射票', '小卡', '棉花娃娃', '挂件', '拍立得']),
    );
    expect(new Set(goods.map((row) => row.status))).toEqual(new Set(GOODS_STATUSES));
  });

  it('uses well-formed fixed ids, distinct from each other', () => {
    const ids = [
      ...Object.values(DEMO_IDS.goods),
      ...Object.values(DEMO_IDS.cabinets),
      ...Object.values(DEMO_IDS.notes),
      DEMO_IDS.unknown,
    ];
    for (const id of ids) expect(id).toMatch(PUBLIC_ID_PATTERN);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
