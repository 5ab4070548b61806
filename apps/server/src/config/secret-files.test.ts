import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_PLATFORM_ENV } from '../test-support/test-app.ts';
import { loadConfig } from './env.ts';
import { SECRET_SETTINGS, withSecretFiles } from './secret-files.ts';

const folder = mkdtempSync(join(tmpdir(), 'guquan-secret-files-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

function secretFile(name: string, text: string): string {
  const path = join(folder, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
}

const DEFAULTS = { webDistDir: '/nowhere/web', dataDir: '/nowhere/data' };

describe('secrets given as files (X_FILE)', () => {
  it('reads every secret setting from its file, less the final line break', () => {
    for (const name of SECRET_SETTINGS) {
      const path = secretFile(name, 'the value\n');
      const { env, problems } = withSecretFiles({ [`${name}_FILE`]: path });
      expect(problems).toEqual([]);
      expect(env[name]).toBe('the value');
    }
  });

  it('refuses both at once, a file it cannot read and an empty one, never saying a value', () => {
    const path = secretFile('token', 'the secret itself\n');
    const { problems } = withSecretFiles({
      PLATFORM_API_TOKEN: 'the secret itself',
      PLATFORM_API_TOKEN_FILE: path,
      PLATFORM_EVENTS_SECRET_FILE: join(folder, 'missing'),
      DATABASE_URL_FILE: secretFile('empty', '\n'),
    });
    expect(problems).toEqual([
      '  DATABASE_URL_FILE: ' + join(folder, 'empty') + ' is empty',
      '  PLATFORM_API_TOKEN: give PLATFORM_API_TOKEN or PLATFORM_API_TOKEN_FILE, not both',
      `  PLATFORM_EVENTS_SECRET_FILE: cannot read ${join(folder, 'missing')} (ENOENT)`,
    ]);
    expect(problems.join('\n')).not.toContain('the secret itself');
  });

  it('is read by the configuration as if the setting were given', () => {
    const { PLATFORM_WEBHOOK_SECRETS: secrets = '', ...others } = TEST_PLATFORM_ENV;
    const config = loadConfig(
      { ...others, PLATFORM_WEBHOOK_SECRETS_FILE: secretFile('webhooks', `${secrets}\n`) },
      DEFAULTS,
    );
    expect(config.platform?.webhookSecrets).toEqual([secrets]);
    expect(() =>
      loadConfig({ ...others, PLATFORM_WEBHOOK_SECRETS_FILE: join(folder, 'nope') }, DEFAULTS),
    ).toThrow(/PLATFORM_WEBHOOK_SECRETS_FILE: cannot read/);
  });
});
