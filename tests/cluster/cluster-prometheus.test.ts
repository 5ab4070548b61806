import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { send } from './http-client.ts';

/**
 * Prometheus in the production shape: the cluster runs it as a child on deploy/prometheus.yml,
 * scraping every server's operators' listener; a killed server's target goes down. And nginx
 * gives each request an id the servers log and answer with.
 */
let cluster: Cluster;
beforeAll(async () => {
  // Ports: any free ones (other clusters may run on this machine).
  cluster = await startCluster({
    instances: 2,
    cache: false,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
    // A killed server stays down for the test: restarted after 100 ms (the default), it could be
    // back before Prometheus' next scrape, which would then never see it down.
    restartBackoff: { firstMs: 120_000, maxMs: 120_000, stableMs: 30_000 },
  });
});
afterAll(async () => {
  // Undefined when the start failed (it cleaned up after itself).
  await (cluster as Cluster | undefined)?.stop();
});

interface Target {
  scrapeUrl: string;
  health: 'up' | 'down' | 'unknown';
  labels: Record<string, string>;
}

async function targets(): Promise<Target[]> {
  const answer = await send(`${cluster.prometheus.url}/api/v1/targets?state=active`);
  if (answer.status !== 200) return [];
  return (JSON.parse(answer.body) as { data: { activeTargets: Target[] } }).data.activeTargets;
}

function healthOf(list: Target[]): Record<string, string> {
  return Object.fromEntries(list.map((target) => [target.labels.instance ?? '', target.health]));
}

describe('Prometheus', () => {
  it('scrapes every server as up, and sees a killed server go down', async () => {
    const instances = cluster.servers.map((server) => `127.0.0.1:${server.opsPort}`);
    await expect
      .poll(async () => healthOf(await targets()), { timeout: 30_000, interval: 500 })
      .toEqual(Object.fromEntries(instances.map((instance) => [instance, 'up'])));
    // Its own query language agrees, with the servers' own metrics.
    const query = await send(
      `${cluster.prometheus.url}/api/v1/query?query=${encodeURIComponent('sum(guquan_build_info)')}`,
    );
    expect(JSON.parse(query.body)).toMatchObject({
      data: { result: [{ value: [expect.any(Number) as number, '2'] }] },
    });
    // The alerts of deploy/alerts.yml are loaded.
    const rules = await send(`${cluster.prometheus.url}/api/v1/rules`);
    expect(rules.body).toContain('GuquanServerDown');

    await cluster.killServer(0);
    await expect
      .poll(async () => healthOf(await targets()), { timeout: 30_000, interval: 500 })
      .toEqual({ [instances[0] ?? '']: 'down', [instances[1] ?? '']: 'up' });
  }, 240_000);
});

describe('request ids through nginx', () => {
  it('a server logs the id nginx gave, and an error answer names it', async () => {
    const answer = await send(`${cluster.origin}/anime_merch_web/api/v1/no-such-thing`);
    expect(answer.status).toBe(404);
    const id = answer.headers?.get('x-request-id') ?? '';
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { requestId: id } });
    await expect
      .poll(() => readFile(join(cluster.nginx.runDir, 'access.log'), 'utf8'), {
        timeout: 5_000,
      })
      .toContain(`id=${id}`);
  });
});
