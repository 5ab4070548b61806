/**
 * A demo server of a spec's own, for what the suite's shared server cannot give: a funnel that
 * starts from the seed (no other test's visits count) or its operators' listener. Its ports are
 * the suite's E2E_PORT plus the spec's offset (the operators' listener 10 above), one more per
 * project where both projects run it at once; a fresh database each time, removed afterwards.
 */
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { funnelResponseSchema, type FunnelResponse } from '@guquan/contract/funnel';
import { startBuiltServer } from '../support/built-server.ts';
import { expect, test } from './fixtures.ts';

/** A day as the funnel counts it (China time), `back` days before today. */
export function funnelDay(back = 0): string {
  return new Date(Date.now() + 8 * 3_600_000 - back * 86_400_000).toISOString().slice(0, 10);
}

export interface OwnServer {
  /** The site, e.g. http://127.0.0.1:18561 (set once the server is up). */
  readonly origin: string;
  /** Its operators' listener. */
  readonly ops: string;
  /**
   * The operators' /api/funnel: today unless `from` and `to` say otherwise, with the rest of the
   * query (`kind`, `id`, `channel`) as given.
   */
  funnel(query?: { from?: string; to?: string } & Record<string, string>): Promise<FunnelResponse>;
}

/**
 * Starts the spec's own server before its tests (in the describe block it is called in) and
 * stops it after them. `port` is the offset from E2E_PORT; `perProject`: the Android project's
 * server one port above the iPhone's, for a spec both projects run at the same time.
 */
export function ownServer({
  name,
  port,
  perProject = false,
  timeoutMs = 150_000,
}: {
  name: string;
  port: number;
  perProject?: boolean;
  timeoutMs?: number;
}): OwnServer {
  let server: ChildProcess | undefined;
  let dataDir = '';
  const own = {
    origin: '',
    ops: '',
    async funnel({ from = funnelDay(), to = funnelDay(), ...rest } = {}) {
      const query = new URLSearchParams({ from, to, ...rest });
      const answer = await fetch(`${own.ops}/api/funnel?${query.toString()}`);
      return funnelResponseSchema.parse(await answer.json());
    },
  };

  test.beforeAll(async ({ browserName }, testInfo) => {
    // The built server with a fresh demo database, seeded first: slow on a busy machine.
    test.setTimeout(timeoutMs + 30_000);
    expect(browserName).toBe('chromium');
    const base = Number(process.env.E2E_PORT ?? 18080);
    const site = base + port + (perProject && testInfo.project.name === 'android' ? 1 : 0);
    own.origin = `http://127.0.0.1:${site}`;
    own.ops = `http://127.0.0.1:${site + 10}`;
    dataDir = await mkdtemp(join(tmpdir(), `guquan-e2e-${name}-`));
    server = await startBuiltServer({
      port: site,
      dataDir,
      env: { OPS_PORT: String(site + 10) },
      output: 'ignore',
      timeoutMs,
    });
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = once(server, 'exit');
      server.kill();
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  return own;
}
