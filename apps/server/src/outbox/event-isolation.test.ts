import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEventOut } from '@guquan/contract/platform-events-out';
import { phoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { postTo, type PostDelivery } from '../http/signed-deliveries.ts';
import { RECEIVED_EVENTS_FAULT_PATH } from '../stand-in/events-receiver.ts';
import { startStandInPlatform, type StandInPlatform } from '../stand-in/stand-in-platform.ts';
import { openTestDatabase } from '../test-support/test-database.ts';
import { TEST_PHONE_KEYS } from '../test-support/test-phone-keys.ts';
import { until } from '../../../../tests/support/wait-until.ts';
import { deliverPlatformEvents, EVENT_TIMEOUT_MS, GIVE_UP_AFTER_MS } from './event-channel.ts';
import { registerOutbox } from './outbox-plugin.ts';
import { queuePlatformEvent } from './platform-events-out.ts';

/**
 * Issue 37: one user's trouble is that user's. The platform refusing every delivery with one
 * user's events, or never answering one, must not hold back other users' events (against the
 * stand-in's receiver on loopback, which refuses or holds deliveries of the users it is told).
 */
let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

const START = new Date('2026-11-27T00:00:00.000Z');

async function database(): Promise<Db> {
  const data = await openTestDatabase({ seed: false });
  cleanup.push(() => data.close());
  return data.db;
}

async function standIn(faults: { refuseUsers?: string[]; hangUsers?: string[] }) {
  const dataDir = await mkdtemp(join(tmpdir(), 'guquan-events-isolation-'));
  const platform = await startStandInPlatform({ dataDir });
  cleanup.push(
    () => rm(dataDir, { recursive: true, force: true }),
    () => platform.close(),
  );
  const answer = await fetch(`${platform.origin}${RECEIVED_EVENTS_FAULT_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(faults),
  });
  expect(answer.status).toBe(204);
  return platform;
}

const eventsUrl = (platform: StandInPlatform) => platform.env.PLATFORM_EVENTS_URL ?? '';

const membership = (userId: string, version: number): PlatformEventOut => ({
  type: 'membership.changed',
  data: { userId, plan: 'monthly', expiresAt: START.toISOString(), autoRenew: true, version },
});

async function queue(db: Db, events: readonly PlatformEventOut[], at: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const event of events) await queuePlatformEvent(trx, event, at);
  });
}

/** One attempt as the site made it: whose events (user → versions), and how it ended. */
interface Attempt {
  events: { userId: string; version: number }[];
  users: string[];
  status?: number;
  error?: string;
  /** performance.now() when it ended: for the order of what happened, never a bound. */
  endedAt?: number;
}

/** The site's attempts, recorded around a real post to the receiver. */
function recording(post: PostDelivery) {
  const attempts: Attempt[] = [];
  const recorded: PostDelivery = async (delivery) => {
    const { events } = JSON.parse(String(delivery.body)) as { events: PlatformEventOut[] };
    const attempt: Attempt = {
      events: events.map((event) => ({
        userId: event.data.userId,
        version: event.type === 'membership.changed' ? event.data.version : 0,
      })),
      users: [...new Set(events.map((event) => event.data.userId))],
    };
    attempts.push(attempt);
    try {
      const answer = await post(delivery);
      attempt.status = answer.status;
      return answer;
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      attempt.endedAt = performance.now();
    }
  };
  /** The versions of `userId`'s events the receiver took, in the order it took them. */
  const delivered = (userId: string) =>
    attempts
      .filter((attempt) => attempt.status === 200)
      .flatMap((attempt) => attempt.events.filter((event) => event.userId === userId))
      .map((event) => event.version);
  return { attempts, post: recorded, delivered };
}

describe("one user's failures hold back no other user's events", () => {
  it("sends B's events at once while the platform refuses A's, and gives up only A's", async () => {
    const db = await database();
    const platform = await standIn({ refuseUsers: ['uA'] });
    const sent = recording(postTo(eventsUrl(platform)));
    let clock = START;
    const options = {
      post: sent.post,
      secret: () => platform.secrets.eventsSecret,
      now: () => clock,
    };

    // Queued together: the first delivery carries both users' events.
    await queue(db, [membership('uA', 1), membership('uB', 1)], clock);
    const first = await deliverPlatformEvents(db, options);
    expect(sent.attempts[0]?.users).toEqual(['uA', 'uB']);
    expect(sent.attempts[0]?.status).toBe(422);
    // B's event went out in the same run, at the same instant of the outbox's clock.
    expect(sent.delivered('uB')).toEqual([1]);
    expect(first).toMatchObject({ events: 1 });

    // B's next events are not held behind A's refused one.
    clock = new Date(START.getTime() + 1_000);
    await queue(db, [membership('uB', 2)], clock);
    await deliverPlatformEvents(db, options);
    expect(sent.delivered('uB')).toEqual([1, 2]);

    // A's event is retried, alone, until it is given up 3 days after it was queued.
    let failed = 0;
    for (let hour = 1; hour <= 3 * 24 + 1; hour++) {
      clock = new Date(START.getTime() + 1_000 + hour * 3_600_000);
      // On the second day, while A's event is still being retried.
      if (hour === 48) await queue(db, [membership('uB', 3)], clock);
      failed += (await deliverPlatformEvents(db, options)).failed;
    }
    expect(clock.getTime() - START.getTime()).toBeGreaterThan(GIVE_UP_AFTER_MS);
    expect(sent.delivered('uB')).toEqual([1, 2, 3]);
    expect(sent.delivered('uA')).toEqual([]);
    const aAttempts = sent.attempts.slice(1).filter((attempt) => attempt.users.includes('uA'));
    expect(aAttempts.length).toBeGreaterThan(3);
    for (const attempt of aAttempts) expect(attempt.users).toEqual(['uA']);
    expect(failed).toBe(1);
    const rows = await db.selectFrom('outbox').selectAll().orderBy('id').execute();
    // Only A's one event is given up; B's three are delivered.
    expect(rows.map((row) => [row.delivered_at !== null, row.failed_at !== null])).toEqual([
      [false, true],
      [true, false],
      [true, false],
      [true, false],
    ]);
  }, 60_000);

  it("sends B's events while a delivery with A's hangs, then retries A's alone", async () => {
    const db = await database();
    const platform = await standIn({ hangUsers: ['uA'] });
    const sent = recording(postTo(eventsUrl(platform), { timeoutMs: EVENT_TIMEOUT_MS }));
    await queue(db, [membership('uA', 1), membership('uB', 1)], START);
    const report = await deliverPlatformEvents(db, {
      post: sent.post,
      secret: () => platform.secrets.eventsSecret,
      now: () => START,
      // The test's own time: a delivery of several users waits 0.3 s, of one user 3 s.
      timeouts: { severalUsersMs: 300, oneUserMs: 3_000 },
    });
    expect(sent.attempts[0]?.users).toEqual(['uA', 'uB']);
    expect(sent.attempts[0]?.status).toBeUndefined();
    expect(sent.delivered('uB')).toEqual([1]);
    const bDelivered = sent.attempts.find((attempt) => attempt.status === 200);
    const aAlone = sent.attempts.find(
      (attempt) => attempt.users.length === 1 && attempt.users[0] === 'uA',
    );
    // B's went through while A's own delivery still hung.
    expect(bDelivered?.endedAt).toBeLessThan(aAlone?.endedAt ?? 0);
    expect(aAlone?.status).toBeUndefined();
    expect(report).toMatchObject({ events: 1, retrying: 1, failed: 0 });
  }, 60_000);

  it("delivers a user's events queued while another user's delivery hangs, on the same server", async () => {
    const db = await database();
    const platform = await standIn({ hangUsers: ['uA'] });
    const sent = recording(postTo(eventsUrl(platform), { timeoutMs: EVENT_TIMEOUT_MS }));
    const app = Fastify();
    registerOutbox(app, {
      db,
      sms: { send: () => Promise.resolve() },
      phones: phoneProtection(TEST_PHONE_KEYS),
      platform: { eventsUrl: eventsUrl(platform), eventsSecret: platform.secrets.eventsSecret },
      postEvents: sent.post,
      firstRunDelayMs: 50,
    });
    await app.ready();
    let closed = false;
    cleanup.push(() => (closed ? Promise.resolve() : app.close()));

    await queue(db, [membership('uA', 1)], new Date());
    await until(() => sent.attempts.length > 0, 20_000, 20);
    expect(sent.attempts[0]?.users).toEqual(['uA']);
    await queue(db, [membership('uC', 1)], new Date());
    // A generous limit: C's event goes out moments after it is queued, A's delivery still held.
    await until(
      () => sent.delivered('uC').length > 0 || sent.attempts[0]?.endedAt !== undefined,
      60_000,
      20,
    );
    expect(sent.delivered('uC')).toEqual([1]);
    expect(sent.attempts[0]?.endedAt).toBeUndefined();

    // Closing, the server gives A's delivery back as it was: due at once, under the same id.
    closed = true;
    await app.close();
    const rows = await db.selectFrom('outbox').selectAll().orderBy('id').execute();
    expect(rows.map((row) => [row.attempts, row.lease_token, row.delivered_at !== null])).toEqual([
      [0, null, false],
      [0, null, true],
    ]);
    expect(rows[0]?.webhook_id).not.toBeNull();
  }, 90_000);
});
