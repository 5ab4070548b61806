import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../../..');
const scratch = mkdtempSync(join(tmpdir(), 'guquan-checkpoints-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('checkpoints off the thread', () => {
  it('keep a process with nothing else to do alive until their thread has closed', () => {
    // In a process of its own: a test runner keeps its event loop busy, a refused server does not.
    const module = pathToFileURL(join(import.meta.dirname, 'sqlite-checkpoints.ts')).href;
    const script = `
      import { createRequire } from 'node:module';
      const Sqlite = createRequire(${JSON.stringify(join(ROOT, 'apps/server/package.json'))})('better-sqlite3');
      const { checkpointsOffThread } = await import(${JSON.stringify(module)});
      const file = ${JSON.stringify(join(scratch, 'closing.sqlite'))};
      const writer = new Sqlite(file);
      writer.pragma('journal_mode = WAL');
      const checkpoints = checkpointsOffThread(writer, file);
      await checkpoints.close();
      writer.close();
      console.log('closed');
      process.exitCode = 3;
    `;
    const run = spawnSync(
      process.execPath,
      [
        '--import',
        pathToFileURL(join(ROOT, 'scripts/load-typescript.mjs')).href,
        '--input-type=module',
        '-e',
        script,
      ],
      { encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('closed');
    expect(run.status).toBe(3);
  });
});
