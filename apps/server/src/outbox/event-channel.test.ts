import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEventOut } from '@guquan/contract/platform-events-out';
import type { Db } from '../db/database.ts';
import { postTo, type PostDelivery } from '../http/signed-deliveries.ts';
import {
  RECEIVED_EVENTS_FAULT_PATH,
  RECEIVED_EVENTS_PATH,
  type ReceivedDelivery,
} from '../stand-in/events-receiver.ts';
import { startStandInPlatform, type StandInPlatform } from '../stand-in/stand-in-platform.ts';
import { openTestDataDirDatabase, TEST_ENGINE } from '../test-support/test-engine.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { deliverPlatformEvents, eventRetryWaitMs, GIVE_UP_AFTER_MS } from './event-channel.ts';
import { queuePlatformEvent } from './platform-events-out.ts';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const START = new Date('2026-11-27T00:00:00.000Z');
const SECRET = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;

async function database(): Promise<TestDatabase> {
  const data = await openTestDatabase({ seed: false });
  cleanup.push(() => data.close());
  return data;
}

async function standIn(): Promise<StandInPlatform> {
  const dataDir = await mkdtemp(join(tmpdir(), 'guquan-events-out-'));
  const platform = await startStandInPlatform({ dataDir });
  cleanup.push(
    () => rm(dataDir, { recursive: true, force: true }),
    () => platform.close(),
  );
  return platform;
}

const membership = (userId: string, version: number): PlatformEventOut => ({
  type: 'membership.changed',
  data: { userId, plan: 'monthly', expiresAt: START.toISOString(), autoRenew: true, version },
});

async function queue(db: Db, events: readonly PlatformEventOut[], at = START): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const event of events) await queuePlatformEvent(trx, event, at);
  });
}

async function received(platform: StandInPlatform): Promise<ReceivedDelivery[]> {
  const answer = await fetch(`${platform.origin}${RECEIVED_EVENTS_PATH}`);
  return ((await answer.json()) as { deliveries: ReceivedDelivery[] }).deliveries;
}

describe('the outbox of platform events', () => {
  it("delivers a user's events on the third try, after two failures, under one webhook-id", async () => {
    const { db } = await database();
    const platform = await standIn();
    await fetch(`${platform.origin}${RECEIVED_EVENTS_FAULT_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ failNext: 2 }),
    });
    await queue(db, [membership('u1', 1), membership('u1', 2)]);
    let clock = START;
    const options = {
      post: postTo(platform.env.PLATFORM_EVENTS_URL ?? ''),
      secret: () => platform.secrets.eventsSecret,
      now: () => clock,
    };

    expect(await deliverPlatformEvents(db, options)).toMatchObject({ delivered: 0, retrying: 1 });
    // Not before its wait is over.
    clock = new Date(START.getTime() + 1000);
    expect(await deliverPlatformEvents(db, options)).toMatchObject({ delivered: 0, retrying: 0 });
    clock = new Date(START.getTime() + eventRetryWaitMs(1));
    expect(await deliverPlatformEvents(db, options)).toMatchObject({ retrying: 1 });
    clock = new Date(clock.getTime() + eventRetryWaitMs(2));
    expect(await deliverPlatformEvents(db, options)).toMatchObject({ delivered: 1, events: 2 });

    const deliveries = await received(platform);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      attempt: 3,
      events: [
        { type: 'membership.changed', userId: 'u1' },
        { type: 'membership.changed', userId: 'u1' },
      ],
    });
    const rows = await db.selectFrom('outbox').selectAll().execute();
    expect(new Set(rows.map((row) => row.webhook_id))).toEqual(new Set([deliveries[0]?.webhookId]));
    // Delivered: the events that named the users are gone, and nothing goes twice.
    expect(rows.every((row) => row.payload === null && row.delivered_at !== null)).toBe(true);
    expect(rows.every((row) => row.partition_key !== 'u1')).toBe(true);
    clock = new Date(clock.getTime() + GIVE_UP_AFTER_MS);
    expect(await deliverPlatformEvents(db, options)).toMatchObject({ delivered: 0, retrying: 0 });
  });

  it("splits a failed delivery of several users: each user's events go again apart, at once", async () => {
    const { db } = await database();
    await queue(db, [membership('u1', 1), membership('u2', 1), membership('u1', 2)]);
    const attempts: { id: string; users: string[] }[] = [];
    const post: PostDelivery = ({ body, headers }) => {
      const { events } = JSON.parse(String(body)) as { events: PlatformEventOut[] };
      attempts.push({
        id: headers['webhook-id'] ?? '',
        users: events.map((event) => event.data.userId),
      });
      return Promise.resolve({ status: attempts.length === 1 ? 503 : 200, body: '' });
    };
    const options = { post, secret: () => SECRET, now: () => START };
    expect(await deliverPlatformEvents(db, options)).toMatchObject({
      split: 1,
      delivered: 2,
      events: 3,
      retrying: 0,
    });
    expect(attempts[0]?.users).toEqual(['u1', 'u2', 'u1']);
    // Each user's events in order, under ids of their own.
    expect(
      attempts
        .slice(1)
        .map((attempt) => attempt.users)
        .sort(),
    ).toEqual([['u1', 'u1'], ['u2']]);
    expect(new Set(attempts.map((attempt) => attempt.id)).size).toBe(3);
    const rows = await db.selectFrom('outbox').selectAll().orderBy('id').execute();
    expect(rows.map((row) => [row.attempts, row.last_error, row.delivered_at !== null])).toEqual([
      [1, '503 Service Unavailable', true],
      [1, '503 Service Unavailable', true],
      [1, '503 Service Unavailable', true],
    ]);
    // Once through, their next events share a delivery again.
    await queue(db, [membership('u1', 3), membership('u2', 2)]);
    await deliverPlatformEvents(db, options);
    expect(attempts.slice(3).map((attempt) => attempt.users)).toEqual([['u1', 'u2']]);
  });

  it('is refused by the stand-in when signed with another secret, and retried', async () => {
    const { db } = await database();
    const platform = await standIn();
    await queue(db, [membership('u1', 1)]);
    const report = await deliverPlatformEvents(db, {
      post: postTo(platform.env.PLATFORM_EVENTS_URL ?? ''),
      secret: () => SECRET,
      now: () => START,
    });
    expect(report).toMatchObject({ delivered: 0, retrying: 1 });
    const row = await db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
    // The operators' page says what this attempt met, not that a delivery it retries gave up.
    expect(row.last_error).toBe('401 Unauthorized');
    expect(await received(platform)).toEqual([]);
  });

  it('signs a retry with the secret current when it leaves (a rotation in between)', async () => {
    const { db } = await database();
    const platform = await standIn();
    await queue(db, [membership('u1', 1)]);
    let current = SECRET;
    const options = {
      post: postTo(platform.env.PLATFORM_EVENTS_URL ?? ''),
      secret: () => current,
      now: () => START,
    };
    expect(await deliverPlatformEvents(db, options)).toMatchObject({ retrying: 1 });
    // PLATFORM_EVENTS_SECRET rotated to the one the platform knows: the retry is signed with it.
    current = platform.env.PLATFORM_EVENTS_SECRET ?? '';
    const later = new Date(START.getTime() + eventRetryWaitMs(1) * 2);
    expect(await deliverPlatformEvents(db, { ...options, now: () => later })).toMatchObject({
      delivered: 1,
    });
    expect(await received(platform)).toHaveLength(1);
  });

  it('gives up 3 days after the oldest event was queued, and wipes it', async () => {
    const { db } = await database();
    await queue(db, [membership('u1', 1)]);
    const failing: PostDelivery = () => Promise.resolve({ status: 500, body: '' });
    let clock = START;
    const run = () =>
      deliverPlatformEvents(db, { post: failing, secret: () => SECRET, now: () => clock });
    let failed = 0;
    while (clock.getTime() - START.getTime() <= GIVE_UP_AFTER_MS + 3_600_000) {
      failed += (await run()).failed;
      clock = new Date(clock.getTime() + 3_600_000);
    }
    expect(failed).toBe(1);
    const row = await db.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ payload: null, delivered_at: null });
    expect(row.failed_at).not.toBeNull();
  });

  it("keeps each user's order, one delivery at a time per user, with two servers delivering", async () => {
    const data = await database();
    // Two servers: on PostgreSQL two pools on one database; SQLite is one server's file, whose one
    // connection runs their transactions one at a time.
    let second = data.db;
    if (TEST_ENGINE === 'postgres') {
      const other = await openTestDataDirDatabase(data.dataDir);
      cleanup.push(() => other.destroy());
      second = other;
    }
    const USERS = ['a', 'b', 'c', 'd'];
    const PER_USER = 40;
    // Queued in interleaved transactions, as changes of several users come.
    for (let version = 1; version <= PER_USER; version++) {
      await queue(
        data.db,
        USERS.map((user) => membership(user, version)),
      );
    }
    const inFlight = new Set<string>();
    const overlaps: string[] = [];
    const applied = new Set<string>();
    const heard = new Map<string, number[]>(USERS.map((user) => [user, []]));
    let attempts = 0;
    const post: PostDelivery = async ({ body, headers }) => {
      attempts += 1;
      const { events } = JSON.parse(String(body)) as { events: PlatformEventOut[] };
      const users = [...new Set(events.map((event) => event.data.userId))];
      for (const user of users) {
        if (inFlight.has(user)) overlaps.push(user);
        inFlight.add(user);
      }
      await new Promise((resolve) => setTimeout(resolve, 5 + (attempts % 3) * 5));
      for (const user of users) inFlight.delete(user);
      // Every third attempt fails: retried later under the same id.
      if (attempts % 3 === 0) return { status: 503, body: '' };
      const id = headers['webhook-id'] ?? '';
      if (!applied.has(id)) {
        applied.add(id);
        for (const event of events) {
          if (event.type === 'membership.changed') {
            heard.get(event.data.userId)?.push(event.data.version);
          }
        }
      }
      return { status: 200, body: '' };
    };
    let clock = START;
    for (let round = 0; round < 60; round++) {
      const options = { post, secret: () => SECRET, now: () => clock };
      await Promise.all([
        deliverPlatformEvents(data.db, options),
        deliverPlatformEvents(second, options),
        deliverPlatformEvents(second, options),
      ]);
      const left = await data.db
        .selectFrom('outbox')
        .select('id')
        .where('delivered_at', 'is', null)
        .execute();
      if (left.length === 0) break;
      clock = new Date(clock.getTime() + 3_600_000);
    }
    expect(overlaps).toEqual([]);
    const inOrder = Array.from({ length: PER_USER }, (_, index) => index + 1);
    for (const user of USERS) expect(heard.get(user), user).toEqual(inOrder);
  });
});
