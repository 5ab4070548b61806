import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  STAND_IN_DEMO_PATHS,
  standInLedgerSchema,
  type StandInLedger,
} from '@guquan/contract/demo-platform';
import { designApiPath, redemptionsApiPath } from '@guquan/contract/design';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { send } from './http-client.ts';

/**
 * Points spent through the platform on several servers (issue 30): a redemption is sent through
 * nginx; the server that took it asks the stand-in platform, which holds the request (the `hang`
 * fault); that server is killed (SIGKILL) with the debit in flight. The page taps again with the
 * same key through nginx, and polls: the redemption completes on a server alive, with the same
 * key, charged once.
 */
let cluster: Cluster;
let standIn = '';

beforeAll(async () => {
  cluster = await startCluster({
    instances: 2,
    cache: false,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
  const platform = cluster.platform;
  if (!platform) throw new Error('the cluster runs no stand-in platform');
  standIn = platform.origin;
  // The demo community arrives from the stand-in after the servers start.
  await vi.waitFor(
    async () => {
      const { status } = await send(`${cluster.origin}${API_BASE_PATH}/health`);
      if (status !== 200) throw new Error(`the cluster is not ready yet (${status})`);
    },
    { timeout: 90_000, interval: 250 },
  );
});
afterAll(async () => {
  await (cluster as Cluster | undefined)?.stop();
});

async function logIn(userId: string): Promise<string> {
  const outcome = await send(`${cluster.origin}${API_BASE_PATH}/demo/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userId }),
  });
  expect(outcome.status).toBe(201);
  return (JSON.parse(outcome.body) as { token: string }).token;
}

async function ledger(): Promise<StandInLedger> {
  return standInLedgerSchema.parse(
    JSON.parse((await send(`${standIn}${STAND_IN_DEMO_PATHS.ledger}`)).body),
  );
}

/** The cluster's server (its index) that sent the debit the stand-in holds open from `port`. */
function serverSendingFrom(port: number): number {
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( sport = :${port} )`], {
    encoding: 'utf8',
  });
  const pids = [...out.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));
  return cluster.servers.findIndex(
    (server) => server.pid !== undefined && pids.includes(server.pid),
  );
}

describe('a redemption whose server is killed with the debit in flight', () => {
  it('completes on a server alive, through nginx, with the same key and one charge', async () => {
    const user = DEMO_IDS.users.karasuno;
    const design = DEMO_IDS.designs.sakura;
    const token = await logIn(user);
    const fault = await send(`${standIn}${STAND_IN_DEMO_PATHS.ledgerFault}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fault: 'hang' }),
    });
    expect(fault.status).toBe(204);

    const key = randomUUID();
    const tap = () =>
      send(`${cluster.origin}${redemptionsApiPath(design)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'idempotency-key': key },
      });
    const first = tap();
    // The server that took it is asking the stand-in, which holds the request: the stand-in
    // says from which port, and the port says which server.
    await expect
      .poll(async () => (await ledger()).heldFrom, {
        message: 'the stand-in holds a debit',
        timeout: 30_000,
        interval: 100,
      })
      .toHaveLength(1);
    const [port = 0] = (await ledger()).heldFrom;
    const holder = serverSendingFrom(port);
    expect(holder, `the server sending from port ${port}`).toBeGreaterThanOrEqual(0);
    expect((await ledger()).nextDebitFault).toBe('none');
    expect((await cluster.killServer(holder)).signal).toBe('SIGKILL');
    const lost = await first;
    expect(lost.status).not.toBe(201);

    // The page taps again (same key) and polls, through nginx.
    let body = '';
    await expect
      .poll(
        async () => {
          const again = await tap();
          if (again.status !== 200 && again.status !== 201 && again.status !== 202) {
            return `answered ${again.status}`;
          }
          body = again.body;
          return (JSON.parse(again.body) as { redemption: { state: string } }).redemption.state;
        },
        { timeout: 180_000, interval: 1_000 },
      )
      .toBe('redeemed');
    const { redemption, balanceAfter } = JSON.parse(body) as {
      redemption: { id: string };
      balanceAfter: number;
    };
    const mine = (await ledger()).debits.filter((debit) => debit.userId === user);
    expect(mine).toEqual([
      expect.objectContaining({ key: redemption.id, outcome: 'charged', balance: balanceAfter }),
    ]);
    const view = await send(`${cluster.origin}${designApiPath(design)}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(JSON.parse(view.body)).toMatchObject({
      viewer: { balance: balanceAfter, redemption: { id: redemption.id, state: 'redeemed' } },
    });
  }, 300_000);
});
