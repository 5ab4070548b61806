import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { freePort } from '../../../tests/support/postgres-server.ts';
import { assertServerBuilt } from './test-support/built-server.ts';
import { makeTempDataDir } from './test-support/test-app.ts';

/**
 * Issue 39, item 1: `PORT=N npm start` beside whatever else the machine runs. In demo mode every
 * port the server opens follows PORT (the link domain PORT + 1, the operators PORT + 10), the
 * ready line names each, and a port another program holds stops the start before anything says
 * it listens (before: the operators' listener took 8090 whatever PORT said, and with 8090 busy
 * the server said "Server listening", then exited, and a script waiting for it waited forever).
 */
const SERVER = fileURLToPath(new URL('../dist/server.js', import.meta.url));

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A base port whose +1 and +10 are free as well. */
async function freeBase(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port > 65_000) continue;
    try {
      await freePort(port + 1);
      await freePort(port + 10);
      return port;
    } catch {
      // one of them taken: another base
    }
  }
}

async function hold(port: number): Promise<Server> {
  const server = createServer();
  server.listen(port, '127.0.0.1');
  await once(server, 'listening');
  cleanups.push(async () => {
    if (!server.listening) return;
    server.close();
    await once(server, 'close');
  });
  return server;
}

function start(port: number, dataDir: string) {
  // Only PORT chooses: none of the test run's own port settings.
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(OPS_PORT|LINK_ORIGIN|HOST)$/.test(name)),
  );
  const child = spawn(process.execPath, [SERVER], {
    env: { ...env, APP_MODE: 'demo', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    await once(child, 'exit');
  });
  return { child, output: () => output };
}

it('follows PORT with every port it opens, and names each when ready', async () => {
  assertServerBuilt();
  const temp = await makeTempDataDir();
  cleanups.push(temp.remove);
  const port = await freeBase();
  const server = start(port, temp.dataDir);
  await expect
    .poll(server.output, { timeout: 120_000, interval: 200 })
    .toContain('谷圈 web is ready');
  const ready =
    server
      .output()
      .split('\n')
      .find((line) => line.includes('谷圈 web is ready')) ?? '';
  expect(ready).toContain(`http://127.0.0.1:${port}/anime_merch_web/website`);
  expect(ready).toContain(`link domain: http://127.0.0.1:${port + 1}`);
  expect(ready).toContain(`operators: http://127.0.0.1:${port + 10}/funnel`);
  expect((await fetch(`http://127.0.0.1:${port + 10}/funnel`)).status).toBe(200);
});

it('stops before saying it listens when one of its ports is taken, naming the setting', async () => {
  assertServerBuilt();
  const temp = await makeTempDataDir();
  cleanups.push(temp.remove);
  const port = await freeBase();
  // Another program on the operators' port (PORT + 10), then on the link domain's (PORT + 1).
  for (const [taken, setting] of [
    [port + 10, 'OPS_PORT'],
    [port + 1, 'PORT + 1'],
  ] as const) {
    const holder = await hold(taken);
    const server = start(port, temp.dataDir);
    const [code] = (await once(server.child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(server.output()).toContain(setting);
    expect(server.output()).toContain(`cannot listen on 127.0.0.1:${taken}`);
    expect(server.output()).not.toMatch(/Server listening|is ready/);
    holder.close();
    await once(holder, 'close');
  }
});
