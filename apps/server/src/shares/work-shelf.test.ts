import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseShareId, SHELF_SIZE, type ShareKind } from '@guquan/contract/share-paths';
import { workShelfSchema, type WorkShelf } from '@guquan/contract/share-shelf';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { TEST_ENGINE } from '../test-support/test-engine.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { findGoods } from './goods-repository.ts';
import { createShareReader, shareRepositories, type ShareReader } from './share-reader.ts';
import { createWorkShelfReader, type WorkShelfReader } from './work-shelf-reader.ts';

const REUSE_MS = 1000;
let data: TestDatabase;
let shares: ShareReader;
let shelves: WorkShelfReader;
let clock = 0;

beforeAll(async () => {
  data = await openTestDatabase();
  shares = createShareReader(shareRepositories(data.db));
  shelves = createWorkShelfReader(data.db, REUSE_MS, () => clock);
});
afterAll(async () => {
  await data.close();
});

async function shelfOf(kind: ShareKind, rawId: string): Promise<WorkShelf> {
  const id = parseShareId(rawId);
  return shelves.read(kind, id, await shares.read(kind, id));
}

/** Moves the clock past the time one read of a shelf answers for it. */
function afterReuse(): void {
  clock += REUSE_MS + 1;
}

/** Public ids of the goods in public view of a work (any without one), newest first. */
async function publicGoodsNewestFirst(work: string | null): Promise<string[]> {
  let query = data.db
    .selectFrom('goods')
    .select('public_id')
    .where('visibility', '=', 'public')
    .where('removed_at', 'is', null);
  if (work !== null) query = query.where('work', '=', work);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => row.public_id);
}

describe('the "more from this work" shelf', () => {
  it("of a goods shown: its work's other public goods, newest first, with cover and price", async () => {
    const shelf = workShelfSchema.parse(await shelfOf('goods', DEMO_IDS.goods.gallery));
    expect(shelf.work).toBe('咒术回战');
    const ids = shelf.goods.map((goods) => goods.id);
    expect(ids).toEqual(
      (await publicGoodsNewestFirst('咒术回战'))
        .filter((id) => id !== DEMO_IDS.goods.gallery)
        .slice(0, SHELF_SIZE),
    );
    expect(ids).toHaveLength(SHELF_SIZE);
    expect(ids).not.toContain(DEMO_IDS.goods.private);
    expect(ids).not.toContain(DEMO_IDS.goods.removed);
    for (const tile of shelf.goods) {
      const goods = (await findGoods(data.db, tile.id))?.item;
      expect(tile).toEqual({
        id: goods?.id,
        name: goods?.name,
        work: '咒术回战',
        status: goods?.status,
        priceFen: goods?.priceFen,
        cover: goods?.images[0],
      });
    }
  });

  it('of a removed goods that was public: the work it was of, without it', async () => {
    const shelf = await shelfOf('goods', DEMO_IDS.goods.removed);
    expect(shelf.work).toBe('咒术回战');
    expect(shelf.goods.map((goods) => goods.id)).toEqual(
      (await publicGoodsNewestFirst('咒术回战')).slice(0, SHELF_SIZE),
    );
  });

  it('of a private goods, an unknown or malformed id, a cabinet or a note: the newest public goods of any work, one shelf for all', async () => {
    const newest = (await publicGoodsNewestFirst(null)).slice(0, SHELF_SIZE);
    const privateShelf = await shelfOf('goods', DEMO_IDS.goods.private);
    // The private goods' work is its owner's: the shelf does not follow it.
    expect(privateShelf.work).toBeNull();
    expect(privateShelf.goods.map((goods) => goods.id)).toEqual(newest);
    expect(await shelfOf('goods', DEMO_IDS.unknown)).toBe(privateShelf);
    expect(await shelfOf('goods', 'bad.id')).toBe(privateShelf);
    expect(await shelfOf('cabinet', DEMO_IDS.cabinets.main)).toBe(privateShelf);
    expect(await shelfOf('note', DEMO_IDS.notes.noImages)).toBe(privateShelf);
  });

  it('sees a change to its goods after the reuse window, not before, and never a private one', async () => {
    const before = await shelfOf('goods', DEMO_IDS.goods.gallery);
    // The oldest public goods of another work becomes the newest of this one.
    const moved = await data.db
      .selectFrom('goods')
      .select('public_id')
      .where('visibility', '=', 'public')
      .where('removed_at', 'is', null)
      .where('work', '!=', '咒术回战')
      .orderBy('created_at')
      .executeTakeFirstOrThrow();
    await data.db
      .updateTable('goods')
      .set({ work: '咒术回战', created_at: '2027-01-01T00:00:00.000Z' })
      .where('public_id', '=', moved.public_id)
      .execute();
    expect(await shelfOf('goods', DEMO_IDS.goods.gallery)).toBe(before);
    afterReuse();
    const after = await shelfOf('goods', DEMO_IDS.goods.gallery);
    expect(after.goods[0]?.id).toBe(moved.public_id);
    // Made private: off every shelf.
    await data.db
      .updateTable('goods')
      .set({ visibility: 'private' })
      .where('public_id', '=', moved.public_id)
      .execute();
    afterReuse();
    expect((await shelfOf('goods', DEMO_IDS.goods.gallery)).goods.map((g) => g.id)).not.toContain(
      moved.public_id,
    );
    expect((await shelfOf('goods', DEMO_IDS.unknown)).goods.map((g) => g.id)).not.toContain(
      moved.public_id,
    );
  });

  it("leaves out the goods of an owner in their account deletion's cool-off", async () => {
    const [first] = (await shelfOf('goods', DEMO_IDS.unknown)).goods;
    const owner = await data.db
      .selectFrom('goods')
      .select('owner_id')
      .where('public_id', '=', first?.id ?? '')
      .executeTakeFirstOrThrow();
    await data.db
      .insertInto('account_deletion_requests')
      .values({
        user_id: owner.owner_id,
        requested_at: '2026-11-23T00:00:00.000Z',
        deletes_at: '2026-12-08T00:00:00.000Z',
        cancelled_at: null,
        cancel_reason: null,
        completed_at: null,
      })
      .execute();
    afterReuse();
    const ids = (await shelfOf('goods', DEMO_IDS.unknown)).goods.map((goods) => goods.id);
    expect(ids).not.toContain(first?.id);
    await data.db
      .updateTable('account_deletion_requests')
      .set({ cancelled_at: '2026-11-24T00:00:00.000Z', cancel_reason: 'user' })
      .where('user_id', '=', owner.owner_id)
      .execute();
    afterReuse();
  });

  it('of a work with no other public goods: the newest of any work, without the item', async () => {
    const { public_id: alone } = await data.db
      .selectFrom('goods')
      .select('public_id')
      .where('visibility', '=', 'public')
      .where('removed_at', 'is', null)
      .where('public_id', 'not in', Object.values(DEMO_IDS.goods))
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    await data.db
      .updateTable('goods')
      .set({ work: '只此一件' })
      .where('public_id', '=', alone)
      .execute();
    afterReuse();
    const shelf = await shelfOf('goods', alone);
    expect(shelf.work).toBeNull();
    expect(shelf.goods).toHaveLength(SHELF_SIZE);
    expect(shelf.goods.map((goods) => goods.id)).not.toContain(alone);
  });

  it("walks migration 0020's index of a work's goods by date, not the whole table", async () => {
    const plan = await data.db.transaction().execute(async (trx) => {
      const query = sql`select id from goods where work = ${'咒术回战'} and visibility = 'public' and removed_at is null order by created_at desc, id desc limit 6`;
      if (TEST_ENGINE === 'sqlite') {
        const rows = await sql<{ detail: string }>`explain query plan ${query}`.execute(trx);
        return rows.rows.map((row) => row.detail).join('\n');
      }
      // The demo's table is small enough for a sequential scan: ask what the index would do.
      await sql`set local enable_seqscan = off`.execute(trx);
      const rows = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
      return rows.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toContain('goods_work_created');
  });
});
