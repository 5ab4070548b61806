import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * `npm test` checks first, in a moment, for what its tests run besides Node
 * (scripts/check-test-tools.mjs), so a fresh machine stops at once with the command that installs
 * it instead of failing minutes in; CI (`.ci/run`) installs through the same script.
 */
const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/check-test-tools.mjs');
const scratch = mkdtempSync(join(tmpdir(), 'guquan-test-tools-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function check(env: Record<string, string>) {
  const started = performance.now();
  // Node by its full path: PATH is the test's, where the tools may be missing.
  const run = spawnSync(process.execPath, [SCRIPT, '--check'], { env, encoding: 'utf8' });
  return { ...run, ms: performance.now() - started };
}

/** A program that does nothing (or prints `output`), in `dir`. */
function stub(dir: string, name: string, output = '') {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${output ? `echo '${output}'\n` : ''}exit 0\n`);
  chmodSync(path, 0o755);
  return path;
}

describe('npm test’s first step, the tools check', () => {
  it('stops at once on a machine without the tools, naming the one command that installs them', () => {
    const empty = join(scratch, 'empty-bin');
    mkdirSync(empty, { recursive: true });
    const run = check({
      PATH: empty,
      CHROMIUM_PATH: join(empty, 'chromium'),
      PG_BIN_DIR: join(empty, 'pg'),
    });
    expect(run.status).toBe(1);
    // At once: it tries no install and waits for nothing (a second here; the margin is for a
    // machine at a quarter of its speed, issue 42).
    expect(run.ms).toBeLessThan(20_000);
    expect(run.stderr).toContain('Chromium');
    expect(run.stderr).toContain('PostgreSQL 15');
    expect(run.stderr).toContain('ZBar');
    // One line that installs them all (nginx, runc, debootstrap and catatonit are also looked for
    // at their fixed paths, so on this machine they may be found there).
    const command = run.stderr.split('\n').find((line) => line.includes('apt-get install'));
    expect(command?.trim()).toMatch(
      /^(sudo )?apt-get install -y --no-install-recommends chromium fonts-wqy-microhei postgresql (nginx )?redis-server prometheus zbar-tools podman( runc)?( debootstrap)?( catatonit)?$/,
    );
  });

  it('passes when every tool is there', () => {
    const bin = join(scratch, 'bin');
    for (const name of [
      'nginx',
      'redis-server',
      'prometheus',
      'promtool',
      'zbarimg',
      'podman',
      'runc',
      'debootstrap',
      'catatonit',
    ])
      stub(bin, name);
    stub(bin, 'fc-list', '/usr/share/fonts/wqy-microhei.ttc: WenQuanYi Micro Hei');
    const run = check({
      PATH: bin,
      CHROMIUM_PATH: stub(join(scratch, 'browser'), 'chromium'),
      PG_BIN_DIR: join(scratch, 'pg'),
    });
    // PostgreSQL's initdb is still missing: only it is asked for.
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/apt-get install -y --no-install-recommends postgresql$/m);
    stub(join(scratch, 'pg'), 'initdb');
    const complete = check({
      PATH: bin,
      CHROMIUM_PATH: join(scratch, 'browser', 'chromium'),
      PG_BIN_DIR: join(scratch, 'pg'),
    });
    expect(complete.stderr).toBe('');
    expect(complete.status).toBe(0);
  });

  it('runs first in npm test, and CI installs through it', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(scripts['test:tools']).toBe('node scripts/check-test-tools.mjs');
    expect(scripts.test?.startsWith('npm run test:tools && ')).toBe(true);
    const ci = readFileSync(join(ROOT, '.ci/run'), 'utf8');
    const commands = ci.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(commands.indexOf('node scripts/check-test-tools.mjs')).toBeGreaterThan(-1);
    expect(commands.indexOf('node scripts/check-test-tools.mjs')).toBeLessThan(
      commands.indexOf('npm test'),
    );
  });
});
