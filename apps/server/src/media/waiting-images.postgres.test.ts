import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/database.ts';
import { newPublicId } from '../db/public-id.ts';
import { makeTempDataDir } from '../test-support/test-app.ts';
import { testDatabaseFor } from '../test-support/test-engine.ts';
import { markAttemptFailed, takeWaitingImages } from './waiting-images.ts';

/**
 * Issue 37: the fetcher never waits for an images row a platform delivery holds (it upserts the
 * rows it names until it commits). Waiting, each of its slots kept a connection of the pool, and
 * together they took those the pages needed: a page waited 5 s of a 5.4 s delivery.
 */
let db: Db;
let url = '';
let remove: () => Promise<void> = () => Promise.resolve();

beforeAll(async () => {
  const temp = await makeTempDataDir();
  const database = await testDatabaseFor(temp.dataDir);
  if (database.engine !== 'postgres') throw new Error('runs on PostgreSQL only');
  url = database.url;
  // One connection: whatever waits holding it would hold up every other query.
  db = await openDatabase({ engine: 'postgres', url, poolSize: 1 });
  remove = async () => {
    await db.destroy();
    await temp.remove();
  };
});
afterAll(async () => {
  await remove();
});

async function waitingImage(): Promise<number> {
  const row = await db
    .insertInto('images')
    .values({
      public_id: newPublicId(),
      width: 10,
      height: 10,
      alt: '',
      file_name: '',
      created_at: new Date().toISOString(),
      source_url: `https://media.example.com/${newPublicId()}.png`,
      state: 'waiting',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A transaction of another connection holding the row, as a delivery's upsert does. */
async function holdRow(id: number): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('begin');
  await client.query('update images set alt = alt where id = $1', [id]);
  return async () => {
    await client.query('rollback');
    await client.end();
  };
}

/** What `work` settled to within `ms`, or 'still waiting'. */
function within<T>(ms: number, work: Promise<T>): Promise<T | 'still waiting'> {
  return Promise.race([
    work,
    new Promise<'still waiting'>((resolve) =>
      setTimeout(() => {
        resolve('still waiting');
      }, ms),
    ),
  ]);
}

it('skips a row a delivery holds when taking work, and takes it once it is let go', async () => {
  // Rows taken by earlier tests are not due: only this one is.
  await db.updateTable('images').set({ state: 'ready' }).where('state', '=', 'waiting').execute();
  const id = await waitingImage();
  const release = await holdRow(id);
  const now = new Date();
  try {
    // Before: the take's UPDATE waited for the delivery's commit, its connection held all along.
    const taken = await within(2_000, takeWaitingImages(db, { now, limit: 1, leaseMs: 60_000 }));
    expect(taken).toEqual([]);
  } finally {
    await release();
  }
  const [lease] = await takeWaitingImages(db, { now, limit: 1, leaseMs: 60_000 });
  expect(lease?.id).toBe(id);
});

it('records a failed attempt once the delivery lets the row go, without a connection meanwhile', async () => {
  await db.updateTable('images').set({ state: 'ready' }).where('state', '=', 'waiting').execute();
  const id = await waitingImage();
  const [lease] = await takeWaitingImages(db, { now: new Date(), limit: 1, leaseMs: 60_000 });
  if (!lease) throw new Error('not taken');
  const release = await holdRow(id);
  const marking = markAttemptFailed(db, lease, {
    reason: 'the platform answered 503',
    retryAt: new Date(Date.now() + 60_000),
  });
  // The pool's one connection is free while the mark waits: a read goes through.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const read = await within(
    2_000,
    db.selectFrom('images').select('id').where('id', '=', id).execute(),
  );
  expect(read).toEqual([{ id }]);
  await release();
  await marking;
  const row = await db
    .selectFrom('images')
    .select(['fetch_error', 'state'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  expect(row).toEqual({ fetch_error: 'the platform answered 503', state: 'waiting' });
});
