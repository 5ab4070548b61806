import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/**
 * deploy/prometheus.yml and deploy/alerts.yml as Debian's promtool reads them: valid, each alert
 * firing in its unit test (deploy/alerts.test.yml), and every metric they name one the servers
 * export (metrics.ts, and request-durations.ts for the requests' durations).
 */
const run = promisify(execFile);
const DEPLOY = fileURLToPath(new URL('../../../../deploy/', import.meta.url));

describe('the Prometheus configuration in deploy/', () => {
  it('passes promtool check config (with its rule file)', async () => {
    const { stdout } = await run('promtool', ['check', 'config', `${DEPLOY}prometheus.yml`]);
    expect(stdout).toContain('is valid prometheus config file syntax');
    expect(stdout).toContain('SUCCESS: 6 rules found');
  });

  it('passes promtool check rules, and each alert fires in its test', async () => {
    const rules = await run('promtool', ['check', 'rules', `${DEPLOY}alerts.yml`]);
    expect(rules.stdout).toContain('SUCCESS: 6 rules found');
    const tests = await run('promtool', ['test', 'rules', `${DEPLOY}alerts.test.yml`]);
    expect(tests.stdout).toContain('SUCCESS');
  });

  it('names only metrics the servers export', async () => {
    const alerts = await readFile(`${DEPLOY}alerts.yml`, 'utf8');
    const source = (
      await Promise.all(
        ['./metrics.ts', './request-durations.ts'].map((module) =>
          readFile(new URL(module, import.meta.url), 'utf8'),
        ),
      )
    ).join('\n');
    const named = new Set(
      [...alerts.matchAll(/\bguquan_\w+/g)].map(([name]) =>
        name.replace(/_(bucket|count|sum)$/, ''),
      ),
    );
    expect(named.size).toBeGreaterThanOrEqual(6);
    for (const name of named) expect(source, name).toContain(`'${name}'`);
  });
});
