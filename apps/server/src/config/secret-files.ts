import { readFileSync } from 'node:fs';

/**
 * Secrets given as files (the convention of the official PostgreSQL image, and how Kubernetes
 * mounts a Secret): every secret setting `X` may instead be `X_FILE`, the path of a file that
 * holds it. The file's content, less a final line break, is the value. Giving both is refused.
 * Nothing here ever puts a secret's value in a message.
 */
export const SECRET_SETTINGS = [
  'DATABASE_URL',
  'REDIS_URL',
  'PHONE_ENCRYPTION_KEY',
  'PHONE_ENCRYPTION_PREVIOUS_KEYS',
  'ALIYUN_SMS_ACCESS_KEY_ID',
  'ALIYUN_SMS_ACCESS_KEY_SECRET',
  'WECHAT_APP_SECRET',
  'PLATFORM_WEBHOOK_SECRETS',
  'PLATFORM_API_TOKEN',
  'PLATFORM_EVENTS_SECRET',
] as const;

export type SecretSetting = (typeof SECRET_SETTINGS)[number];

/**
 * The secrets a running server takes up again when their files change or on SIGHUP
 * (secret-rotation.ts); the others are read once, at start.
 */
export const ROTATING_SECRET_SETTINGS: readonly SecretSetting[] = [
  'PLATFORM_WEBHOOK_SECRETS',
  'PLATFORM_API_TOKEN',
  'PLATFORM_EVENTS_SECRET',
  'PHONE_ENCRYPTION_KEY',
  'PHONE_ENCRYPTION_PREVIOUS_KEYS',
];

export type Env = Record<string, string | undefined>;

/** Reads a file's text; tests replace it. */
export type ReadText = (path: string) => string;

const readText: ReadText = (path) => readFileSync(path, 'utf8');

/** The files named by `X_FILE` settings, by the setting they hold. */
export function secretFilesOf(env: Env): Map<SecretSetting, string> {
  const files = new Map<SecretSetting, string>();
  for (const name of SECRET_SETTINGS) {
    const path = env[`${name}_FILE`]?.trim();
    if (path) files.set(name, path);
  }
  return files;
}

/**
 * The environment with each `X_FILE` read into `X`, or the problems (one line each, naming the
 * setting and the file, never a value).
 */
export function withSecretFiles(
  env: Env,
  read: ReadText = readText,
): { env: Env; problems: string[] } {
  const resolved: Env = { ...env };
  const problems: string[] = [];
  for (const [name, path] of secretFilesOf(env)) {
    if (env[name] !== undefined) {
      problems.push(`  ${name}: give ${name} or ${name}_FILE, not both`);
      continue;
    }
    let text: string;
    try {
      text = read(path);
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
      problems.push(`  ${name}_FILE: cannot read ${path} (${code})`);
      continue;
    }
    const value = text.replace(/\r?\n$/, '');
    if (value.trim() === '') problems.push(`  ${name}_FILE: ${path} is empty`);
    else resolved[name] = value;
  }
  return { env: resolved, problems };
}
