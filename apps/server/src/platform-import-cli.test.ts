import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_PLATFORM_ENV } from './test-support/test-app.ts';
import { openTestDatabase, type TestDatabase } from './test-support/test-database.ts';
import { testDatabaseEnv } from './test-support/test-engine.ts';

/**
 * `npm run platform:import` as it is run: the built dist/platform-import.js (npm run build),
 * on the tests' engine. Ctrl-C stops it after a transaction and the same command goes on; with
 * --to it delivers the file, signed, to a running site.
 */
const CLI = fileURLToPath(new URL('../dist/platform-import.js', import.meta.url));
const MEDIA = TEST_PLATFORM_ENV.PLATFORM_MEDIA_ORIGINS ?? '';

let t: TestDatabase | undefined;
let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
  await t?.close();
  t = undefined;
});

const idOf = (letter: string, n: number) => `${letter}${String(n).padStart(15, '0')}`;

/** `users` users, each followed by `goodsEach` goods: one JSON line each. */
function community(users: number, goodsEach: number): string {
  const lines: string[] = [];
  for (let u = 0; u < users; u += 1) {
    lines.push(
      JSON.stringify({
        type: 'user.upserted',
        data: {
          id: idOf('u', u),
          version: 1,
          nickname: `谷友${u}`,
          avatar: null,
          phone: null,
          points: u,
          deletionBlockers: [],
        },
      }),
    );
    for (let k = 0; k < goodsEach; k += 1) {
      const n = u * goodsEach + k;
      lines.push(
        JSON.stringify({
          type: 'goods.upserted',
          data: {
            id: idOf('g', n),
            version: 1,
            ownerId: idOf('u', u),
            name: `吧唧 ${n}`,
            work: '咒术回战',
            character: null,
            category: '吧唧',
            priceFen: null,
            status: 'display',
            visibility: 'public',
            images: [{ url: `${MEDIA}/g/${n % 50}.jpg`, width: 600, height: 800, alt: '' }],
            likes: 0,
            wants: 0,
            text: '',
            tags: [],
            createdAt: '2026-11-20T09:15:00.000Z',
          },
        }),
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

interface Run {
  code: number | null;
  stderr: string;
}

/** Runs the command; `interruptWhen` sends SIGINT once stderr matches it. */
function runCli(args: string[], env: Record<string, string>, interruptWhen?: RegExp): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let interrupted = false;
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (interruptWhen && !interrupted && interruptWhen.test(stderr)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    child.stdout.resume();
    child.once('error', reject);
    child.once('exit', (code) => {
      resolve({ code, stderr });
    });
  });
}

async function countOf(db: TestDatabase['db'], table: 'users' | 'goods'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('npm run platform:import (the built command)', () => {
  it('stops after the current transaction on Ctrl-C, and the same command then finishes', async () => {
    expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
    t = await openTestDatabase({ seed: false });
    const file = join(t.dataDir, 'community.jsonl');
    // 1,250 users with 19 goods each: 25,000 lines, five transactions of 5,000.
    await writeFile(file, community(1250, 19));
    const env = {
      DATA_DIR: t.dataDir,
      ...(await testDatabaseEnv(t.dataDir)),
      ...TEST_PLATFORM_ENV,
    };

    const stopped = await runCli([file], env, /events\/s/);
    expect(stopped.stderr).toMatch(/Stopping after the current batch/);
    expect(stopped.code, stopped.stderr).toBe(130);
    const line = Number(/Stopped after line (\d+)\./.exec(stopped.stderr)?.[1]);
    expect(line % 5000).toBe(0);
    expect(line).toBeLessThan(25_000);
    // Every line up to there applied, whole transactions only.
    expect((await countOf(t.db, 'users')) + (await countOf(t.db, 'goods'))).toBe(line);

    const finished = await runCli([file], env);
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stderr).toMatch(/Done\. 25,000 events/);
    expect(finished.stderr).toContain(
      `${new Intl.NumberFormat('en-US').format(25_000 - line)} applied`,
    );
    expect(await countOf(t.db, 'users')).toBe(1250);
    expect(await countOf(t.db, 'goods')).toBe(23_750);
  }, 180_000);

  it('names a bad line and its place, and exits 1', async () => {
    expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
    t = await openTestDatabase({ seed: false });
    const file = join(t.dataDir, 'bad.jsonl');
    await writeFile(
      file,
      `${community(1, 1)}{"type":"goods.removed","data":{"id":"g!","version":1}}\n`,
    );
    const run = await runCli([file], {
      DATA_DIR: t.dataDir,
      ...(await testDatabaseEnv(t.dataDir)),
      ...TEST_PLATFORM_ENV,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Line 3, data\.id: /);
    expect(await countOf(t.db, 'users')).toBe(0);
  });

  it('names a line that is wrong as a whole without a field, and says when nothing was applied', async () => {
    expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
    t = await openTestDatabase({ seed: false });
    const file = join(t.dataDir, 'not-utf8.jsonl');
    await writeFile(
      file,
      Buffer.concat([
        Buffer.from('{"type":"user.deleted","data":{"id":"'),
        Buffer.from([0xff]),
        Buffer.from('"}}\n'),
      ]),
    );
    const run = await runCli([file], {
      DATA_DIR: t.dataDir,
      ...(await testDatabaseEnv(t.dataDir)),
      ...TEST_PLATFORM_ENV,
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Line 1 is not valid UTF-8.');
    expect(run.stderr).toContain('Before it, no line was applied.');
  });

  it('--to delivers the file to a site, signed, 500 events at a time; again, it changes nothing', async () => {
    expect(existsSync(CLI), 'needs the build: npm run build').toBe(true);
    app = await buildTestApp({ ...TEST_PLATFORM_ENV });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    t = await openTestDatabase({ seed: false });
    const file = join(t.dataDir, 'to-site.jsonl');
    // 60 users with 19 goods each: 1,200 lines, three deliveries.
    await writeFile(file, community(60, 19));
    const env = { PLATFORM_WEBHOOK_SECRETS: TEST_PLATFORM_ENV.PLATFORM_WEBHOOK_SECRETS ?? '' };
    const origin = `http://127.0.0.1:${port}`;

    const first = await runCli([file, '--to', origin], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /Done\. 1,200 events of lines 1–1200 delivered to .*: 1,200 applied, 0 ignored/,
    );
    const again = await runCli([file, '--to', origin], env);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/0 applied, 1,200 ignored/);

    const wrongSecret = await runCli([file, '--to', origin], {
      PLATFORM_WEBHOOK_SECRETS: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
    });
    expect(wrongSecret.code).toBe(1);
    expect(wrongSecret.stderr).toMatch(/Lines 1–500 were not delivered .*401/);
  }, 120_000);
});
