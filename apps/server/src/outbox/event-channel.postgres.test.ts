import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEventOut } from '@guquan/contract/platform-events-out';
import type { Db } from '../db/database.ts';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import type { PostDelivery } from '../http/signed-deliveries.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { openTestDatabase } from '../test-support/test-database.ts';
import { deliverPlatformEvents } from './event-channel.ts';
import { queuePlatformEvent } from './platform-events-out.ts';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/**
 * Holds the outbox's rows locked (`held` once they are), waits for the site's connection to
 * block on them (recording the delivery), terminates that connection, then lets go: the cut
 * falls exactly between the platform's answer and the site's record of it.
 */
function cutWhileRecording(admin: Db): { held: Promise<void>; done: Promise<void> } {
  let signalHeld: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    signalHeld = resolve;
  });
  const done = admin.transaction().execute(async (trx) => {
    await sql`select id from outbox for update`.execute(trx);
    signalHeld();
    const deadline = Date.now() + 10_000;
    for (;;) {
      // A transaction sees the activity as it was at its first look unless told to look again.
      await sql`select pg_stat_clear_snapshot()`.execute(trx);
      const { rows } = await sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(trx);
      if ((rows[0]?.n ?? 0) > 0) return;
      if (Date.now() > deadline) throw new Error('the site never waited on the held rows');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  return { held, done };
}

const START = new Date('2026-11-27T00:00:00.000Z');
const SECRET = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;

describe('the outbox of platform events, PostgreSQL cut mid-delivery', () => {
  it('loses nothing and skips nothing: the cut delivery is sent again under its id', async () => {
    const data = await openTestDatabase({ seed: false });
    cleanup.push(() => data.close());
    const admin = await openTestDataDirDatabase(data.dataDir);
    cleanup.push(() => admin.destroy());
    const PER_USER = 30;
    for (let version = 1; version <= PER_USER; version++) {
      await data.db.transaction().execute(async (trx) => {
        for (const userId of ['a', 'b']) {
          const event: PlatformEventOut = {
            type: 'membership.changed',
            data: { userId, plan: null, expiresAt: null, autoRenew: null, version },
          };
          await queuePlatformEvent(trx, event, START);
        }
      });
    }
    const applied = new Set<string>();
    const ids: string[] = [];
    const heard: Record<string, number[]> = { a: [], b: [] };
    let cut: Promise<void> | undefined;
    const post: PostDelivery = async ({ body, headers }) => {
      const id = headers['webhook-id'] ?? '';
      ids.push(id);
      if (!applied.has(id)) {
        applied.add(id);
        const { events } = JSON.parse(String(body)) as { events: PlatformEventOut[] };
        for (const event of events) {
          if (event.type === 'membership.changed')
            heard[event.data.userId]?.push(event.data.version);
        }
      }
      if (!cut) {
        // The platform has the events; the site's connection is cut while it records that.
        const rowsHeld = cutWhileRecording(admin);
        cut = rowsHeld.done;
        await rowsHeld.held;
      }
      return { status: 200, body: '' };
    };
    let clock = START;
    const run = () =>
      deliverPlatformEvents(data.db, { post, secret: () => SECRET, now: () => clock });
    const first = await run().catch((error: unknown) => error);
    expect(isDatabaseUnavailable(first)).toBe(true);
    await cut;
    for (let round = 0; round < 20; round++) {
      // After the cut delivery's lease has run out.
      clock = new Date(clock.getTime() + 10 * 60_000);
      await run().catch((error: unknown) => {
        if (!isDatabaseUnavailable(error)) throw error;
      });
      const left = await data.db
        .selectFrom('outbox')
        .select('id')
        .where('delivered_at', 'is', null)
        .execute();
      if (left.length === 0) break;
    }
    const inOrder = Array.from({ length: PER_USER }, (_, index) => index + 1);
    expect(heard).toEqual({ a: inOrder, b: inOrder });
    // The delivery cut before it was recorded was sent again, under the same id.
    expect(ids.length).toBeGreaterThan(applied.size);
    expect(ids[1]).toBe(ids[0]);
  });
});
