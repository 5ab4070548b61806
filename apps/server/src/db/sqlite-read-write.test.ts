import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EVENTUALLY } from '../test-support/eventually.ts';
import { openSqliteDatabase } from './database.ts';

/**
 * The SQLite connections (sqlite-read-write.ts): a SELECT outside a transaction is answered by
 * the reader at once, from the last commit; everything else takes the writer, one holder at a
 * time, and whoever holds it reads what it wrote.
 */
interface Notes {
  notes: { id: number; text: string };
}

let dir: string;
let db: Kysely<Notes>;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'guquan-sqlite-'));
  db = openSqliteDatabase(join(dir, 'test.sqlite3'));
  await sql`create table notes (id integer primary key, text text not null)`.execute(db);
  await db.insertInto('notes').values({ id: 1, text: 'committed' }).execute();
});
afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

const texts = async (from: Kysely<Notes>) =>
  (await from.selectFrom('notes').select('text').orderBy('id').execute()).map((row) => row.text);

/** A transaction left open until `finish` is called; resolves once it has written. */
async function openTransaction(): Promise<{ finish: () => void; done: Promise<void> }> {
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let written = () => {};
  const hasWritten = new Promise<void>((resolve) => {
    written = resolve;
  });
  const done = db.transaction().execute(async (trx) => {
    await trx.updateTable('notes').set({ text: 'uncommitted' }).where('id', '=', 1).execute();
    await trx.insertInto('notes').values({ id: 2, text: 'new' }).execute();
    // The transaction reads what it wrote.
    expect(await texts(trx)).toEqual(['uncommitted', 'new']);
    written();
    await finished;
  });
  await hasWritten;
  return { finish, done };
}

describe('SQLite with a reader and a writer', () => {
  it('answers a SELECT while a transaction is open, from the last commit', async () => {
    const transaction = await openTransaction();
    expect(await texts(db)).toEqual(['committed']);
    transaction.finish();
    await transaction.done;
    expect(await texts(db)).toEqual(['uncommitted', 'new']);
  });

  it('makes a write outside the transaction wait for its end, then run', async () => {
    const transaction = await openTransaction();
    const order: string[] = [];
    const write = db
      .insertInto('notes')
      .values({ id: 3, text: 'after' })
      .execute()
      .then(() => order.push('write'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    order.push('commit');
    transaction.finish();
    await Promise.all([transaction.done, write]);
    expect(order).toEqual(['commit', 'write']);
    expect(await texts(db)).toEqual(['uncommitted', 'new', 'after']);
  });

  it('rolls a failed transaction back and lets the next one in', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ id: 4, text: 'lost' }).execute();
        throw new Error('half-way');
      }),
    ).rejects.toThrow('half-way');
    expect(await texts(db)).toEqual(['committed']);
    await db.transaction().execute((trx) => trx.deleteFrom('notes').execute());
    expect(await texts(db)).toEqual([]);
  });

  it('keeps the writer for a connection that wrote until it is released', async () => {
    const order: string[] = [];
    let other: Promise<unknown> = Promise.resolve();
    await db.connection().execute(async (connection) => {
      await connection.insertInto('notes').values({ id: 5, text: 'held' }).execute();
      other = db
        .insertInto('notes')
        .values({ id: 6, text: 'other' })
        .execute()
        .then(() => order.push('other'));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await texts(connection)).toEqual(['committed', 'held']);
      order.push('released');
    });
    await other;
    expect(order).toEqual(['released', 'other']);
  });
});

describe('checkpoints', () => {
  it('copies what the WAL holds into the database file off the server’s thread', async () => {
    const file = join(dir, 'test.sqlite3');
    const before = (await stat(file)).size;
    // About 4 MB: a thousand pages and more, which SQLite would checkpoint in the commit.
    const text = 'x'.repeat(4_000);
    await db
      .insertInto('notes')
      .values(Array.from({ length: 1_000 }, (_, n) => ({ id: n + 10, text })))
      .execute();
    // The writer checkpoints nothing itself; the file grows once the thread has.
    const writerRule = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
      db,
    );
    expect(writerRule.rows[0]?.wal_autocheckpoint).toBe(0);
    await expect
      .poll(async () => (await stat(file)).size, EVENTUALLY)
      .toBeGreaterThan(before + 4e6);
  });
});

describe('the event loop', () => {
  it('turns while statements run back to back, once they have taken 10 ms', async () => {
    // Each statement's promise is settled at once: without slices a chain of them is one block,
    // and the timer below would wait for the chain's end.
    const loop = { turned: false };
    setImmediate(() => {
      loop.turned = true;
    });
    let turnedDuringChain = false;
    const started = performance.now();
    while (performance.now() - started < 50) {
      await db.selectFrom('notes').select('id').execute();
      if (loop.turned) turnedDuringChain = true;
    }
    expect(turnedDuringChain).toBe(true);
  });
});
