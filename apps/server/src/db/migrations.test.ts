import { afterEach, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import type { ShareKind } from '@guquan/contract/share-paths';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { isPostgres, type Db } from './database.ts';
import { migrations, migrateToLatest } from './migrations.ts';
import { TABLES_CHILDREN_FIRST } from './user-data.ts';

let current: TestDatabase | undefined;
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('migrations', () => {
  it('build every table on an empty database, and running them again changes nothing', async () => {
    current = await openTestDatabase({ seed: false });
    const tables = await current.db.introspection.getTables();
    // Every table the list of a user's data names (user-data.test.ts says what each must hold).
    expect(tables.map((table) => table.name).sort()).toEqual([...TABLES_CHILDREN_FIRST].sort());
    await migrateToLatest(current.db, { phones: current.phones });
    const applied = await sql<{
      name: string;
    }>`select name from kysely_migration order by name`.execute(current.db);
    expect(applied.rows.map((row) => row.name)).toEqual(
      Object.keys(migrations({ phones: current.phones })),
    );
  });

  it('enforce the rules the code relies on: foreign keys, statuses, unique public ids', async () => {
    current = await openTestDatabase({ seed: false });
    const { db } = current;
    const now = new Date().toISOString();
    const goods = {
      public_id: 'AAAAAAAAAAAAAAAA',
      owner_id: 999,
      name: 'x',
      work: 'x',
      character: null,
      category: 'x',
      price_fen: null,
      status: 'display' as const,
      text: '',
      tags: '[]',
      likes: 0,
      wants: 0,
      visibility: 'public' as const,
      created_at: now,
      removed_at: null,
    };
    await expect(db.insertInto('goods').values(goods).execute()).rejects.toThrow(/FOREIGN KEY/i);
    const user = await db
      .insertInto('users')
      .values({
        public_id: 'BBBBBBBBBBBBBBBB',
        nickname: 'n',
        avatar_image_id: null,
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await expect(
      db
        .insertInto('goods')
        .values({ ...goods, owner_id: user.id, status: 'swap' as 'display' })
        .execute(),
    ).rejects.toThrow(/CHECK/i);
    await db
      .insertInto('goods')
      .values({ ...goods, owner_id: user.id })
      .execute();
    await expect(
      db
        .insertInto('goods')
        .values({ ...goods, owner_id: user.id })
        .execute(),
    ).rejects.toThrow(/UNIQUE/i);
  });

  it('leave the kind of share to the code: a kind the constraints never listed is kept (0012)', async () => {
    current = await openTestDatabase({ seed: false });
    const { db, phones } = current;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ ...migrations({ phones }) }) },
    });
    // Back to 0010 and 0011's constraints (0012 down), rows written then, and up again.
    expect((await migrator.migrateTo('0011-share-funnel')).error).toBeUndefined();
    const newKind = 'album' as ShareKind;
    const funnelRow = {
      day: '2026-11-20',
      kind: 'goods' as ShareKind,
      item_id: 'AAAAAAAAAAAAAAAA',
      channel: 'wechat' as const,
      event: 'viewed' as const,
      count: 3,
    };
    await expect(
      db
        .insertInto('share_funnel_days')
        .values({ ...funnelRow, kind: newKind })
        .execute(),
    ).rejects.toThrow(/share_funnel_days_kind/);
    await db.insertInto('share_funnel_days').values(funnelRow).execute();
    const now = new Date().toISOString();
    const handoff = (digest: string, kind: ShareKind, image: number | null) => ({
      code_digest: digest,
      target_kind: kind,
      target_id: 'BBBBBBBBBBBBBBBB',
      target_image: image,
      created_at: now,
      expires_at: now,
    });
    await expect(
      db
        .insertInto('app_link_handoffs')
        .values(handoff('new-kind', newKind, null))
        .execute(),
    ).rejects.toThrow(/app_link_handoffs_kind/);
    const { id } = await db
      .insertInto('app_link_handoffs')
      .values(handoff('minted-before', 'goods', 2))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('app_link_claims')
      .values({ handoff_id: id, install_digest: 'install', claimed_at: now })
      .execute();

    await migrateToLatest(db, { phones });

    // What was there is, with its id; the constraints but the kinds' still hold.
    expect(await db.selectFrom('share_funnel_days').selectAll().execute()).toEqual([funnelRow]);
    expect(
      await db.selectFrom('app_link_handoffs').select(['id', 'target_image']).execute(),
    ).toEqual([{ id, target_image: 2 }]);
    await db
      .insertInto('share_funnel_days')
      .values({ ...funnelRow, kind: newKind })
      .execute();
    await db
      .insertInto('app_link_handoffs')
      .values(handoff('new-kind', newKind, 1))
      .execute();
    const refusals: [() => Promise<unknown>, RegExp][] = [
      [
        () =>
          db
            .insertInto('share_funnel_days')
            .values({ ...funnelRow, count: 0 })
            .execute(),
        /share_funnel_days_count/,
      ],
      [
        () =>
          db
            .insertInto('share_funnel_days')
            .values({ ...funnelRow, event: 'clicked' as 'viewed' })
            .execute(),
        /share_funnel_days_event/,
      ],
      [
        () => db.insertInto('share_funnel_days').values(funnelRow).execute(),
        /UNIQUE|duplicate key/i,
      ],
      [
        () =>
          db
            .insertInto('app_link_handoffs')
            .values(handoff('negative', 'goods', -1))
            .execute(),
        /app_link_handoffs_image/,
      ],
      [
        () =>
          db
            .insertInto('app_link_handoffs')
            .values(handoff('new-kind', 'note', null))
            .execute(),
        /UNIQUE|duplicate key/i,
      ],
      [
        () =>
          db
            .insertInto('app_link_claims')
            .values({ handoff_id: 999, install_digest: 'x', claimed_at: now })
            .execute(),
        /FOREIGN KEY|foreign key/,
      ],
    ];
    for (const [refused, reason] of refusals) await expect(refused()).rejects.toThrow(reason);
    // Claims still go with their code, and the indexes are back.
    await db.deleteFrom('app_link_handoffs').where('id', '=', id).execute();
    expect(await db.selectFrom('app_link_claims').selectAll().execute()).toEqual([]);
    expect(await indexNames(db)).toEqual(
      expect.arrayContaining(['app_link_handoffs_expires', 'share_funnel_days_item']),
    );
  });

  it('widen public ids to 64 characters and move balances into users.points (0014)', async () => {
    current = await openTestDatabase({ seed: false });
    const { db, phones } = current;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ ...migrations({ phones }) }) },
    });
    const old = db.withTables<{
      point_balances: { user_id: number; balance: number; updated_at: string };
    }>();
    const balances = () =>
      old.selectFrom('point_balances').select(['user_id', 'balance']).orderBy('user_id').execute();
    const pointsOf = async () =>
      Object.fromEntries(
        (await db.selectFrom('users').select(['public_id', 'points']).execute()).map((row) => [
          row.public_id,
          row.points,
        ]),
      );
    const now = new Date().toISOString();
    const longest = 'L'.repeat(64);
    const user = (publicId: string) => ({
      public_id: publicId,
      nickname: 'n',
      avatar_image_id: null,
      created_at: now,
    });

    expect((await migrator.migrateTo('0013-platform-copy')).error).toBeUndefined();
    const rich = await db
      .insertInto('users')
      .values(user('RRRRRRRRRRRRRRRR'))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('users').values(user('PPPPPPPPPPPPPPPP')).execute();
    await old
      .insertInto('point_balances')
      .values({ user_id: rich.id, balance: 300, updated_at: now })
      .execute();
    // PostgreSQL held public ids to 16 characters (SQLite never enforced a length).
    if (isPostgres(db)) {
      await expect(db.insertInto('users').values(user(longest)).execute()).rejects.toThrow(
        /too long/,
      );
    }

    await migrateToLatest(db, { phones });
    expect(await pointsOf()).toEqual({ RRRRRRRRRRRRRRRR: 300, PPPPPPPPPPPPPPPP: 0 });
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain(
      'point_balances',
    );
    await expect(
      db.updateTable('users').set({ points: -1 }).where('id', '=', rich.id).execute(),
    ).rejects.toThrow(/users_points_nonnegative/);

    // Down and up again: the balance goes back to its table and comes back.
    expect((await migrator.migrateTo('0013-platform-copy')).error).toBeUndefined();
    expect(await balances()).toEqual([{ user_id: rich.id, balance: 300 }]);
    await migrateToLatest(db, { phones });
    expect(await pointsOf()).toEqual({ RRRRRRRRRRRRRRRR: 300, PPPPPPPPPPPPPPPP: 0 });

    // Every column of a public id takes the platform's longest.
    const { id } = await db
      .insertInto('users')
      .values(user(longest))
      .returning('id')
      .executeTakeFirstOrThrow();
    const image = await db
      .insertInto('images')
      .values({ public_id: longest, width: 1, height: 1, alt: '', file_name: '', created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const owned = { owner_id: id, text: '', likes: 0, visibility: 'public' as const };
    await db
      .insertInto('goods')
      .values({
        ...owned,
        public_id: longest,
        name: 'x',
        work: 'x',
        character: null,
        category: 'x',
        price_fen: null,
        status: 'display',
        tags: '[]',
        wants: 0,
        created_at: now,
        removed_at: null,
      })
      .execute();
    await db
      .insertInto('cabinets')
      .values({
        ...owned,
        public_id: longest,
        name: 'x',
        cover_image_id: image.id,
        created_at: now,
        removed_at: null,
      })
      .execute();
    const note = await db
      .insertInto('notes')
      .values({
        public_id: longest,
        author_id: id,
        title: 'x',
        text: '',
        tags: '[]',
        likes: 0,
        collects: 0,
        visibility: 'public',
        created_at: now,
        removed_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('comments')
      .values({
        public_id: longest,
        note_id: note.id,
        author_id: id,
        text: 'x',
        likes: 0,
        created_at: now,
        removed_at: null,
      })
      .execute();
    const design = await db
      .insertInto('designs')
      .values({
        public_id: longest,
        designer_id: id,
        title: 'x',
        preview_image_id: image.id,
        price_points: 1,
        created_at: now,
        retired_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('redemptions')
      .values({
        public_id: longest,
        user_id: rich.id,
        design_id: design.id,
        idempotency_key: 'k',
        price_points: 1,
        state: 'redeemed',
        balance_after: 299,
        debit_id: 'd',
        attempts: 1,
        next_attempt_at: null,
        lease_token: null,
        lease_until: null,
        last_error: null,
        created_at: now,
        completed_at: now,
      })
      .execute();
    await db
      .insertInto('media_deletions')
      .values({ image_public_id: longest, file_name: 'x.jpg', queued_at: now })
      .execute();
    await db
      .insertInto('app_link_handoffs')
      .values({
        code_digest: 'd',
        target_kind: 'note',
        target_id: longest,
        target_image: null,
        created_at: now,
        expires_at: now,
      })
      .execute();
    await db
      .insertInto('share_funnel_days')
      .values({
        day: '2026-11-26',
        kind: 'note',
        item_id: longest,
        channel: 'wechat',
        event: 'viewed',
        count: 1,
      })
      .execute();
    expect(
      await db.selectFrom('share_funnel_days').select('item_id').executeTakeFirstOrThrow(),
    ).toEqual({ item_id: longest });
  });

  it('take a seeded database down to 0013 and up again whole: balances, references, indexes (0014)', async () => {
    current = await openTestDatabase();
    const { db, phones } = current;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ ...migrations({ phones }) }) },
    });
    const snapshot = async () => ({
      users: await db
        .selectFrom('users')
        .select(['id', 'public_id', 'points', 'phone_index'])
        .orderBy('id')
        .execute(),
      goods: await db.selectFrom('goods').select(['id', 'owner_id']).orderBy('id').execute(),
      redemptions: await db.selectFrom('redemptions').selectAll().orderBy('id').execute(),
    });
    const before = await snapshot();
    expect(before.users.some((user) => user.points > 0)).toBe(true);
    const indexesBefore = await indexNames(db);
    expect((await migrator.migrateTo('0013-platform-copy')).error).toBeUndefined();
    await migrateToLatest(db, { phones });
    expect(await snapshot()).toEqual(before);
    expect(await indexNames(db)).toEqual(expect.arrayContaining(indexesBefore));
    // Foreign keys still hold, both ways.
    await expect(
      db
        .deleteFrom('users')
        .where('id', '=', before.goods[0]?.owner_id ?? 0)
        .execute(),
    ).rejects.toThrow(/FOREIGN KEY|foreign key/);
  });
});

describe('migration 0018 (redemption debits)', () => {
  it('makes every redemption redeemed with its ledger balance, and lets a refused one be tried again', async () => {
    current = await openTestDatabase();
    const { db, phones } = current;
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve({ ...migrations({ phones }) }) },
    });
    const before = await db.selectFrom('redemptions').selectAll().orderBy('id').execute();
    expect(before.length).toBeGreaterThan(0);
    expect((await migrator.migrateTo('0016-note-comment-count')).error).toBeUndefined();
    const old = db.withTables<{
      point_ledger: { id: number; user_id: number; delta: number; balance_after: number };
    }>();
    const ledger = await old
      .selectFrom('point_ledger')
      .select(['user_id', 'delta', 'balance_after'])
      .orderBy('id')
      .execute();
    expect(ledger).toEqual(
      before.map((row) => ({
        user_id: row.user_id,
        delta: -row.price_points,
        balance_after: row.balance_after,
      })),
    );
    await migrateToLatest(db, { phones });
    const after = await db.selectFrom('redemptions').selectAll().orderBy('id').execute();
    expect(after).toEqual(before);
    expect(after.every((row) => row.state === 'redeemed' && row.balance_after !== null)).toBe(true);
    expect((await db.introspection.getTables()).map((table) => table.name)).not.toContain(
      'point_ledger',
    );

    // One redemption per user and design that is not refused; a refused one may be tried again.
    const first = after[0];
    if (!first) throw new Error('no redemption');
    const at = new Date().toISOString();
    const row = (publicId: string, key: string, state: 'pending' | 'refused') => ({
      public_id: publicId,
      user_id: first.user_id,
      design_id: first.design_id,
      idempotency_key: key,
      price_points: first.price_points,
      state,
      balance_after: null,
      debit_id: null,
      attempts: 0,
      next_attempt_at: at,
      lease_token: null,
      lease_until: null,
      last_error: null,
      created_at: at,
      completed_at: null,
    });
    await expect(
      db
        .insertInto('redemptions')
        .values(row('AAAAAAAAAAAAAAA1', 'k1', 'pending'))
        .execute(),
    ).rejects.toThrow(/unique/i);
    await db
      .updateTable('redemptions')
      .set({ state: 'refused', balance_after: null })
      .where('id', '=', first.id)
      .execute();
    await db
      .insertInto('redemptions')
      .values(row('AAAAAAAAAAAAAAA2', 'k2', 'pending'))
      .execute();
    await expect(
      db
        .insertInto('redemptions')
        .values(row('AAAAAAAAAAAAAAA3', 'k3', 'pending'))
        .execute(),
    ).rejects.toThrow(/unique/i);
    // The same page key twice, and a redeemed one without the platform's balance: refused.
    await expect(
      db
        .insertInto('redemptions')
        .values(row('AAAAAAAAAAAAAAA4', 'k2', 'refused'))
        .execute(),
    ).rejects.toThrow(/unique/i);
    await expect(
      db
        .updateTable('redemptions')
        .set({ state: 'redeemed' })
        .where('public_id', '=', 'AAAAAAAAAAAAAAA2')
        .execute(),
    ).rejects.toThrow(/redemptions_redeemed|CHECK/i);
  });
});

async function indexNames(db: Db): Promise<string[]> {
  const { rows } = isPostgres(db)
    ? await sql<{ name: string }>`select indexname as name from pg_indexes`.execute(db)
    : await sql<{ name: string }>`select name from sqlite_master where type = 'index'`.execute(db);
  return rows.map((row) => row.name);
}
