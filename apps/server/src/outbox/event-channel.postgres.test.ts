import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { PlatformEventOut } from '@guquan/contract/platform-events-out';
import { isDatabaseUnavailable } from '../db/database-unavailable.ts';
import type { PostDelivery } from '../platform/signed-deliveries.ts';
import { openTestDataDirDatabase } from '../test-support/test-engine.ts';
import { openTestDatabase } from '../test-support/test-database.ts';
import { deliverPlatformEvents } from './event-channel.ts';
import { queuePlatformEvent } from './platform-events-out.ts';

let cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

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
    let cut = false;
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
        // The platform has the events; the site's database goes away before it records that.
        cut = true;
        await sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = current_database() and pid <> pg_backend_pid()`.execute(admin);
      }
      return { status: 200, body: '' };
    };
    let clock = START;
    const run = () => deliverPlatformEvents(data.db, { post, secret: SECRET, now: () => clock });
    const first = await run().catch((error: unknown) => error);
    expect(isDatabaseUnavailable(first)).toBe(true);
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
  }, 60_000);
});
