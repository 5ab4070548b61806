import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shareApiPath } from '@guquan/contract/share-paths';
import { createRequest } from '../../apps/server/src/account-deletion/deletion-requests.ts';
import { openPostgresDatabase, type Db } from '../../apps/server/src/db/database.ts';
import { DEMO_IDS, type DemoUserKey } from '../../apps/server/src/demo/seed/demo-ids.ts';
import type { ReceivedDelivery } from '../../apps/server/src/stand-in/events-receiver.ts';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { until } from '../support/wait-until.ts';
import { send } from './http-client.ts';

/**
 * The events out in the production shape (issue 30): the deletion job on two servers (both killed
 * and restarted with accounts due, so each starts its job at once) deletes each account once, and
 * the stand-in platform hears `account.deleted` once per account, in one delivery (a repeat
 * would carry the same webhook-id, which the stand-in lists once).
 */
const LEAVING: DemoUserKey[] = ['yuyuan', 'satoru', 'chigu'];
const LONG_AGO = new Date('2025-01-01T00:00:00.000Z');

let cluster: Cluster;
let db: Db;

beforeAll(async () => {
  cluster = await startCluster({
    instances: 2,
    cache: false,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
  const goods = shareApiPath('goods', DEMO_IDS.goods.gallery);
  await until(async () => (await send(`${cluster.origin}${goods}`)).status === 200, 180_000);
  db = await openPostgresDatabase({ url: cluster.postgres.url(), poolSize: 2 });
}, 300_000);
afterAll(async () => {
  await db.destroy();
  await (cluster as Cluster | undefined)?.stop();
});

async function received(): Promise<ReceivedDelivery[]> {
  const answer = await send(`${cluster.platform?.origin ?? ''}/demo/received-events`);
  if (answer.status !== 200) return [];
  return (JSON.parse(answer.body) as { deliveries: ReceivedDelivery[] }).deliveries;
}

describe('events out with two servers', () => {
  it('the deletion job on both servers sends account.deleted once per account', async () => {
    const ids: string[] = [];
    for (const key of LEAVING) {
      const user = await db
        .selectFrom('users')
        .select(['id', 'public_id'])
        .where('public_id', '=', DEMO_IDS.users[key])
        .executeTakeFirstOrThrow();
      ids.push(user.public_id);
      await db.transaction().execute((trx) => createRequest(trx, user.id, LONG_AGO));
    }
    // Both servers restart with the accounts due: each runs its deletion job soon after.
    await Promise.all([cluster.killServer(0), cluster.killServer(1)]);

    const deletedIn = async () => {
      const deliveries = await received();
      return ids.map((id) =>
        deliveries.filter((delivery) =>
          delivery.events.some((event) => event.type === 'account.deleted' && event.userId === id),
        ),
      );
    };
    await until(async () => (await deletedIn()).every((found) => found.length > 0), 120_000);
    // Every request completed, so no job will queue anything more for them.
    await until(async () => {
      const completed = await db
        .selectFrom('account_deletion_requests')
        .select('id')
        .where('completed_at', 'is not', null)
        .execute();
      return completed.length === LEAVING.length;
    }, 30_000);
    // Delivered, and nothing left to send: the outbox keeps no event naming them, so what the
    // stand-in heard is all it will hear of them.
    await until(async () => {
      const left = await db
        .selectFrom('outbox')
        .select('id')
        .where('channel', '=', 'platform_events')
        .where('payload', 'is not', null)
        .execute();
      return left.length === 0;
    }, 30_000);
    const found = await deletedIn();
    for (const [index, deliveries] of found.entries()) {
      expect(deliveries, ids[index]).toHaveLength(1);
      const events = deliveries[0]?.events ?? [];
      expect(
        events.filter((event) => event.type === 'account.deleted' && event.userId === ids[index]),
      ).toHaveLength(1);
    }
  }, 240_000);
});
