import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDataDir } from '../test-support/test-app.ts';
import { startStandInProcess } from './stand-in-process.ts';

/** The stand-in as server.ts runs it: dist/stand-in.js (`npm run build` makes it), forked. */
const SCRIPT = fileURLToPath(new URL('../../dist/stand-in.js', import.meta.url));

let temp: { dataDir: string; remove: () => Promise<void> };
beforeEach(async () => {
  temp = await makeTempDataDir();
});
afterEach(() => temp.remove());

/** Running: not gone, and not a zombie left for an init that does not reap (a container's). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100 && alive(pid); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !alive(pid);
}

describe('the stand-in process', () => {
  it('tells its settings, serves its JWKS, and stops when asked', async () => {
    const standIn = await startStandInProcess({ script: SCRIPT, dataDir: temp.dataDir });
    const jwks = await fetch(standIn.env.PLATFORM_JWKS_URL ?? '');
    expect(jwks.status).toBe(200);
    expect(((await jwks.json()) as { keys: unknown[] }).keys).toHaveLength(1);
    await standIn.stop();
    await expect(fetch(standIn.env.PLATFORM_JWKS_URL ?? '')).rejects.toThrow();
  });

  it('stops with its parent, however the parent ends', async () => {
    // A parent that forks the stand-in, says its pid once it is ready, then is killed outright.
    const parent = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { fork } from 'node:child_process';
         const child = fork(${JSON.stringify(SCRIPT)}, [], {
           env: { ...process.env, STAND_IN_DATA_DIR: ${JSON.stringify(temp.dataDir)} },
           stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
           execArgv: [],
         });
         child.on('message', () => console.log(child.pid));`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const pid = await new Promise<number>((resolve) => {
      parent.stdout.once('data', (chunk: Buffer) => {
        resolve(Number(chunk.toString().trim()));
      });
    });
    expect(alive(pid)).toBe(true);
    parent.kill('SIGKILL');
    expect(await gone(pid)).toBe(true);
  });
});
