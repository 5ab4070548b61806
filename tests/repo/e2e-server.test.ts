import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

/**
 * The browser tests' server runs through scripts/e2e-server.mjs, which removes its data
 * directory (/tmp/guquan-e2e-data-<port>) once the server stops: runs on free ports leave none
 * behind. Checked here with a stand-in server that writes into the directory as the real one does.
 */
const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/e2e-server.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'guquan-e2e-server-test-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A server that fills DATA_DIR, says whether it found it empty, and closes on SIGTERM. */
const FAKE_SERVER = join(scratch, 'fake-server.mjs');
writeFileSync(
  FAKE_SERVER,
  `import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
const dir = process.env.DATA_DIR;
mkdirSync(dir, { recursive: true });
const fresh = readdirSync(dir).length === 0;
writeFileSync(dir + '/guquan.sqlite', 'data');
process.once('SIGTERM', () => setTimeout(() => process.exit(0), 100));
setInterval(() => {}, 1000);
console.log(fresh ? 'ready fresh' : 'ready stale');
`,
);

/** Starts the wrapper in a process group of its own, as Playwright does; resolves once ready. */
async function start(dataDir: string) {
  const child = spawn(process.execPath, [SCRIPT, FAKE_SERVER], {
    env: { ...process.env, DATA_DIR: dataDir },
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  const ready = await new Promise<string>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('ready')) resolve(output.trim());
    });
    child.on('exit', () => {
      reject(new Error(`the wrapper ended before the server was ready: ${output}`));
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('no process');
  return { pid, ready, exited };
}

describe('the browser tests’ server (scripts/e2e-server.mjs)', () => {
  it('starts on an empty data directory and removes it once stopped as Playwright stops it', async () => {
    const dataDir = join(scratch, 'guquan-e2e-data-20000');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'left-from-before'), 'x');
    const server = await start(dataDir);
    expect(server.ready).toBe('ready fresh');
    expect(existsSync(join(dataDir, 'guquan.sqlite'))).toBe(true);
    // Playwright's gracefulShutdown: the signal to the whole process group.
    process.kill(-server.pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('passes a signal sent to it alone on to the server, and still removes the directory', async () => {
    const dataDir = join(scratch, 'guquan-e2e-data-20128');
    const server = await start(dataDir);
    process.kill(server.pid, 'SIGTERM');
    expect(await server.exited).toBe(0);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('is how playwright.config.ts starts the server, stopped with SIGTERM', async () => {
    vi.stubEnv('E2E_PORT', '20000');
    try {
      const { default: config } = await import('../../playwright.config.ts');
      const webServer = Array.isArray(config.webServer) ? config.webServer[0] : config.webServer;
      expect(webServer?.command).toBe('node scripts/e2e-server.mjs apps/server/dist/server.js');
      expect(webServer?.env?.DATA_DIR).toBe(join(tmpdir(), 'guquan-e2e-data-20000'));
      expect(webServer?.gracefulShutdown?.signal).toBe('SIGTERM');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
