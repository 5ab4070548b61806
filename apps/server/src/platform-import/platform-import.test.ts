import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEvent } from '@guquan/contract/platform-events';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { EVENT_LINE_MAX_BYTES } from './event-lines.ts';
import { importEventFile, localSteps } from './platform-import.ts';

/**
 * `npm run platform:import FILE` as the command runs it (importEventFile with localSteps), on the
 * tests' engine: a file applied, a rerun changing nothing, a bad line stopping before its batch,
 * a stop between two batches and the run that goes on from there.
 */
const MEDIA = 'http://127.0.0.1:9';

let t: TestDatabase | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** A public id of 16 characters (valid before and after ids were widened). */
const idOf = (letter: string, n: number) => `${letter}${String(n).padStart(15, '0')}`;

function user(n: number, version = 1, points = 100 * n): PlatformEvent {
  return {
    type: 'user.upserted',
    data: {
      id: idOf('u', n),
      version,
      nickname: `谷友${n}`,
      avatar: null,
      phone: null,
      points,
      deletionBlockers: [],
    },
  };
}

function goods(
  n: number,
  owner: number,
  { version = 1, url = `${MEDIA}/g/${n}.jpg` } = {},
): PlatformEvent {
  return {
    type: 'goods.upserted',
    data: {
      id: idOf('g', n),
      version,
      ownerId: idOf('u', owner),
      name: `吧唧 ${n}`,
      work: '咒术回战',
      character: null,
      category: '吧唧',
      priceFen: 3500,
      status: 'selling',
      visibility: 'public',
      images: [{ url, width: 1080, height: 1440, alt: '' }],
      likes: 1,
      wants: 0,
      text: '',
      tags: [],
      createdAt: '2026-11-20T09:15:00.000Z',
    },
  };
}

/** Two users, each with three goods: eight lines. */
const COMMUNITY: PlatformEvent[] = [
  user(1),
  goods(1, 1),
  goods(2, 1),
  goods(3, 1),
  user(2),
  goods(4, 2),
  goods(5, 2),
  goods(6, 2),
];

async function fileOf(db: TestDatabase, lines: (PlatformEvent | string)[]): Promise<string> {
  const file = join(db.dataDir, `events-${Math.random().toString(36).slice(2)}.jsonl`);
  const text = lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line)));
  await writeFile(file, `${text.join('\n')}\n`);
  return file;
}

async function copied(db: TestDatabase['db']): Promise<{ users: string[]; goods: string[] }> {
  const users = await db.selectFrom('users').select('public_id').orderBy('public_id').execute();
  const goodsRows = await db.selectFrom('goods').select('public_id').orderBy('public_id').execute();
  return { users: users.map((row) => row.public_id), goods: goodsRows.map((row) => row.public_id) };
}

function run(
  db: TestDatabase,
  file: string,
  options: { batchEvents?: number; stopAfter?: number } = {},
) {
  let batches = 0;
  return importEventFile({
    file,
    ...localSteps(db.db, { phones: db.phones, mediaOrigins: [MEDIA] }),
    batchEvents: options.batchEvents,
    onProgress: () => (batches += 1),
    stopRequested: () => options.stopAfter !== undefined && batches >= options.stopAfter,
  });
}

describe('npm run platform:import FILE', () => {
  it('applies every event of the file, and a second run changes nothing', async () => {
    t = await openTestDatabase({ seed: false });
    const file = await fileOf(t, COMMUNITY);
    expect(await run(t, file, { batchEvents: 3 })).toMatchObject({
      kind: 'done',
      events: 8,
      applied: 8,
      ignored: 0,
      lastLine: 8,
    });
    const after = await copied(t.db);
    expect(after.users).toEqual([idOf('u', 1), idOf('u', 2)]);
    expect(after.goods).toEqual([1, 2, 3, 4, 5, 6].map((n) => idOf('g', n)));

    expect(await run(t, file)).toMatchObject({ kind: 'done', events: 8, applied: 0, ignored: 8 });
    expect(await copied(t.db)).toEqual(after);
  });

  it('keeps the highest version, whatever the order, in one batch or across runs', async () => {
    t = await openTestDatabase({ seed: false });
    const { db } = t;
    const pointsOf = async () => {
      const row = await db
        .selectFrom('users')
        .select('points')
        .where('public_id', '=', idOf('u', 1))
        .executeTakeFirstOrThrow();
      return row.points;
    };
    const outcome = await run(t, await fileOf(t, [user(1, 5, 50), user(1, 4, 40), user(1, 6, 60)]));
    expect(outcome).toMatchObject({ kind: 'done', events: 3 });
    expect(outcome.applied + outcome.ignored).toBe(3);
    expect(await pointsOf()).toBe(60);
    // Older versions in a later run change nothing; a newer one does.
    expect(await run(t, await fileOf(t, [user(1, 5, 55), user(1, 2, 20)]))).toMatchObject({
      applied: 0,
      ignored: 2,
    });
    expect(await pointsOf()).toBe(60);
    expect(await run(t, await fileOf(t, [user(1, 7, 70)]))).toMatchObject({ applied: 1 });
    expect(await pointsOf()).toBe(70);
  });

  it('stops at a bad line, naming it and the place, before its batch; what came before stays', async () => {
    t = await openTestDatabase({ seed: false });
    const offOrigin = goods(7, 2, { url: 'https://elsewhere.example/g/7.jpg' });
    const file = await fileOf(t, [...COMMUNITY.slice(0, 6), offOrigin, ...COMMUNITY.slice(6)]);
    const outcome = await run(t, file, { batchEvents: 3 });
    expect(outcome).toMatchObject({ kind: 'refused', events: 6, applied: 6, lastLine: 6 });
    if (outcome.kind !== 'refused') throw new Error('not refused');
    expect(outcome.refusal).toMatchObject({ line: 7, path: 'data.images[0].url' });
    expect(outcome.refusal.message).toMatch(/PLATFORM_MEDIA_ORIGINS/);
    expect(await copied(t.db)).toEqual({
      users: [idOf('u', 1), idOf('u', 2)],
      goods: [1, 2, 3, 4].map((n) => idOf('g', n)),
    });

    const notJson = await fileOf(t, [user(3), '{"type":"user.upserted",']);
    const second = await run(t, notJson);
    expect(second).toMatchObject({
      kind: 'refused',
      events: 0,
      refusal: { line: 2, path: '(line)' },
    });
    expect((await copied(t.db)).users).not.toContain(idOf('u', 3));
  });

  it('stops at a line over the limit or not UTF-8, naming it; nothing of it is stored', async () => {
    t = await openTestDatabase({ seed: false });
    const notUtf8 = join(t.dataDir, 'not-utf8.jsonl');
    const [before, after] = JSON.stringify(user(2)).split('谷友2');
    await writeFile(
      notUtf8,
      Buffer.concat([
        Buffer.from(`${JSON.stringify(user(1))}\n${before}`),
        // One byte of a three-byte character, then an ASCII digit: not UTF-8.
        Buffer.from([0xe8, 0x30]),
        Buffer.from(`${after}\n`),
      ]),
    );
    expect(await run(t, notUtf8, { batchEvents: 1 })).toMatchObject({
      kind: 'refused',
      applied: 1,
      refusal: { line: 2, path: '(line)', message: 'is not valid UTF-8' },
    });
    // Not stored with U+FFFD in place of the bad byte.
    expect((await copied(t.db)).users).toEqual([idOf('u', 1)]);

    const long = JSON.stringify(user(3)).replace('谷友3', 'x'.repeat(EVENT_LINE_MAX_BYTES));
    const tooLong = await fileOf(t, [user(4), long, user(5)]);
    expect(await run(t, tooLong, { batchEvents: 1 })).toMatchObject({
      kind: 'refused',
      applied: 1,
      refusal: {
        line: 2,
        path: '(line)',
        message: 'is longer than 5,242,816 bytes, the most a line may hold',
      },
    });
    expect((await copied(t.db)).users).toEqual([idOf('u', 1), idOf('u', 4)]);
  });

  it('stops between two batches when asked, and a second run goes on to the same end', async () => {
    t = await openTestDatabase({ seed: false });
    const file = await fileOf(t, COMMUNITY);
    expect(await run(t, file, { batchEvents: 3, stopAfter: 1 })).toMatchObject({
      kind: 'stopped',
      events: 3,
      applied: 3,
      lastLine: 3,
    });
    expect(await copied(t.db)).toEqual({
      users: [idOf('u', 1)],
      goods: [idOf('g', 1), idOf('g', 2)],
    });

    expect(await run(t, file, { batchEvents: 3 })).toMatchObject({
      kind: 'done',
      applied: 5,
      ignored: 3,
    });
    expect((await copied(t.db)).goods).toHaveLength(6);
  });

  it('passes over a type the site does not know, counting it ignored', async () => {
    t = await openTestDatabase({ seed: false });
    const file = await fileOf(t, [user(1), '{"type":"badge.awarded","data":{"id":"b1"}}']);
    expect(await run(t, file)).toMatchObject({ kind: 'done', events: 2, applied: 1, ignored: 1 });
  });
});
