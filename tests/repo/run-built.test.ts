import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The operators' commands (`npm run platform:import`, `npm run delete-accounts`) run the built
 * server's command as it is: they build nothing at run time, so they work on a production host,
 * which has the build and no compiler (issue 37, item 14).
 */
const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/run-built.mjs');

describe('the operators’ commands', () => {
  it('are the built commands, with no build step before them', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts['platform:import']).toBe('node scripts/run-built.mjs platform-import');
    expect(scripts['delete-accounts']).toBe('node scripts/run-built.mjs delete-accounts');
  });

  it('say what to run when there is no build, and refuse a name that is no command', () => {
    const missing = spawnSync(process.execPath, [SCRIPT, 'no-such-command'], { encoding: 'utf8' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('run `npm run build` first');
    const odd = spawnSync(process.execPath, [SCRIPT, '../../etc/passwd'], { encoding: 'utf8' });
    expect(odd.status).toBe(2);
  });
});
