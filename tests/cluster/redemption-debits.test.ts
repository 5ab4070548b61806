import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { designApiPath, redemptionsApiPath } from '@guquan/contract/design';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { send, sleep } from './http-client.ts';

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
  const deadline = Date.now() + 90_000;
  while ((await send(`${cluster.origin}${API_BASE_PATH}/health`)).status !== 200) {
    if (Date.now() > deadline) throw new Error('the cluster did not become ready');
    await sleep(250);
  }
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

interface Ledger {
  debits: { key: string; userId: string; outcome: string; balance: number }[];
  nextDebitFault: string;
}

async function ledger(): Promise<Ledger> {
  return JSON.parse((await send(`${standIn}/demo/ledger`)).body) as Ledger;
}

/** The pids of the processes with a connection open to the stand-in platform now. */
function pidsTalkingToStandIn(): number[] {
  const port = new URL(standIn).port;
  const out = execFileSync('ss', ['-tnpH', 'state', 'established', `( dport = :${port} )`], {
    encoding: 'utf8',
  });
  return [...out.matchAll(/pid=(\d+)/g)].map((match) => Number(match[1]));
}

describe('a redemption whose server is killed with the debit in flight', () => {
  it('completes on a server alive, through nginx, with the same key and one charge', async () => {
    const user = DEMO_IDS.users.karasuno;
    const design = DEMO_IDS.designs.sakura;
    const token = await logIn(user);
    // Idle connections to the stand-in (the log-in's) close after a few seconds of keep-alive.
    await sleep(5_000);
    const fault = await send(`${standIn}/demo/ledger/fault`, {
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
    // The server that took it is asking the stand-in, which holds the request.
    let holder: number | undefined;
    for (let tries = 0; tries < 40 && holder === undefined; tries += 1) {
      await sleep(100);
      const pids = pidsTalkingToStandIn();
      holder = cluster.servers.findIndex(
        (server) => server.pid !== undefined && pids.includes(server.pid),
      );
      if (holder === -1) holder = undefined;
    }
    if (holder === undefined) throw new Error('no server is asking the stand-in');
    expect((await ledger()).nextDebitFault).toBe('none');
    expect((await cluster.killServer(holder)).signal).toBe('SIGKILL');
    const lost = await first;
    expect(lost.status).not.toBe(201);

    // The page taps again (same key) and polls, through nginx.
    const deadline = Date.now() + 180_000;
    let state = 'pending';
    let body = '';
    while (state !== 'redeemed' && Date.now() < deadline) {
      const again = await tap();
      if (again.status === 200 || again.status === 201 || again.status === 202) {
        body = again.body;
        state = (JSON.parse(again.body) as { redemption: { state: string } }).redemption.state;
      }
      if (state !== 'redeemed') await sleep(1_000);
    }
    expect(state).toBe('redeemed');
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
