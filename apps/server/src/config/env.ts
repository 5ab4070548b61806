import { join, resolve } from 'node:path';
import { z } from 'zod';
import { dataPaths } from './data-paths.ts';
import { databaseUrlProblem, type DatabaseConfig } from './database-config.ts';
import { readAppLinksConfig, type AppLinksConfig } from './app-links-config.ts';
import { readPlatformConfig, type PlatformConfig } from './platform-config.ts';
import { readSmsConfig, type AliyunSmsConfig } from './sms-config.ts';
import { readWeChatConfig, type WeChatConfig } from './wechat-config.ts';
import { parseTrustProxy, type TrustProxy } from './trust-proxy.ts';
import { withSecretFiles, type Env, type ReadText } from './secret-files.ts';
import { issueText } from './zod-issues.ts';
import { readPhoneKeys } from '../crypto/phone-keys.ts';
import type { PhoneKeys } from '../crypto/phone-protection.ts';

/**
 * The server's configuration, read from the environment once at start-up. Anything missing or
 * malformed stops the start with a message that names the variable.
 */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

const directoryPath = z
  .string()
  .min(1)
  .refine((value) => !value.includes('\0'), 'must be a directory path');

/**
 * A setting that is a whole number from `min` to `max`, written in decimal digits, or one of
 * `words` (spaces around either allowed). An empty value is refused, never read as 0
 * (z.coerce.number() did: `OPS_PORT=` opened the operators' listener on a random port); to get
 * the default, leave the variable out.
 */
function wholeNumber<Word extends string = never>(
  min: number,
  max: number,
  what: string,
  words: readonly Word[] = [],
) {
  const isWord = (text: string): text is Word => (words as readonly string[]).includes(text);
  return z.string().transform((value, context): number | Word => {
    const text = value.trim();
    if (text === '') {
      context.addIssue({
        code: 'custom',
        message: `is empty: give ${what}, or leave it out for the default`,
      });
      return z.NEVER;
    }
    if (isWord(text)) return text;
    const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!(number >= min && number <= max)) {
      context.addIssue({ code: 'custom', message: `must be ${what}` });
      return z.NEVER;
    }
    return number;
  });
}

const PORT_NUMBER = 'a port (0-65535)';

const envSchema = z.object({
  APP_MODE: z.enum(['demo', 'production']).default('demo'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: wholeNumber(0, 65535, PORT_NUMBER).default(8080),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Readable lines for a person at a terminal (demo), JSON lines for a log collector (production).
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  // The operators' listener (metrics, readiness, the funnel page): never the public port.
  OPS_HOST: z.string().min(1).default('127.0.0.1'),
  OPS_PORT: wholeNumber(0, 65535, `${PORT_NUMBER} or off`, ['off']).optional(),
  PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
  WEB_DIST_DIR: z.string().min(1).optional(),
  DATA_DIR: directoryPath.optional(),
  // Image originals and their resized copies: every server of a cluster must see the same ones.
  MEDIA_DIR: directoryPath.optional(),
  MEDIA_CACHE_DIR: directoryPath.optional(),
  // Rate-limit counters shared by every server; unset, each server counts in its own memory.
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional(),
  TRUST_PROXY: z.string().optional(),
  // Unset: SQLite in DATA_DIR. The URL is never echoed back (it may hold a password).
  DATABASE_URL: z
    .string()
    .optional()
    .superRefine((value, context) => {
      const problem = value === undefined ? undefined : databaseUrlProblem(value);
      if (problem) context.addIssue({ code: 'custom', message: problem });
    }),
  DATABASE_POOL_SIZE: wholeNumber(1, 1000, 'a number of connections (1-1000)').default(10),
  // The App Store: which app's transactions count, from which environment, trusting which roots.
  // Xcode and LocalTesting are not accepted: the verifier skips signatures for them.
  APPLE_BUNDLE_ID: z
    .string()
    .regex(/^[A-Za-z0-9.-]+$/, 'must be a bundle id such as com.example.app')
    .optional(),
  APPLE_APP_APPLE_ID: wholeNumber(
    1,
    Number.MAX_SAFE_INTEGER,
    "the app's Apple id (a number)",
  ).optional(),
  APPLE_ENVIRONMENT: z.enum(['Production', 'Sandbox']).optional(),
  APPLE_ROOT_CERTS_DIR: z.string().min(1).optional(),
});

/** The bundle id demo mode signs and checks when APPLE_BUNDLE_ID does not say. */
export const DEMO_BUNDLE_ID = 'com.guquan.app';

export type AppMode = 'demo' | 'production';

/**
 * The operators' listener in demo mode when OPS_PORT does not say: PORT + 10 (8090 beside the
 * default 8080), so a second site started with another PORT takes none of the first one's ports
 * (docs/configuration.md). With PORT 0 (any free port), any free port too.
 */
export const DEMO_OPS_PORT_OFFSET = 10;

export function demoOpsPort(port: number): number {
  return port === 0 ? 0 : port + DEMO_OPS_PORT_OFFSET;
}

/** Where the operators' listener listens (ops-app.ts), or null: none. */
export interface OpsListenerConfig {
  host: string;
  port: number;
}

export interface Config {
  mode: AppMode;
  host: string;
  port: number;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** `pretty` (one readable line per event) or `json` (one JSON object per line). */
  logFormat: 'pretty' | 'json';
  /**
   * The operators' listener: /metrics, /health/live, /health/ready and the funnel page. On by
   * default in demo mode (PORT + 10: demoOpsPort), only when OPS_PORT is set in production; null when off.
   */
  ops: OpsListenerConfig | null;
  /** The origin the site is reached at, for absolute URLs (link previews). */
  publicOrigin: string;
  /** The web app's build: `client/` (assets, template, manifest) and `server/` (renderer). */
  webDistDir: string;
  /** Where the data lives: the SQLite database, image originals and the resized-image cache. */
  dataDir: string;
  /** The proxies whose X-Forwarded-For is believed: none, or their addresses/CIDRs. */
  trustProxy: TrustProxy;
  /** Image originals (MEDIA_DIR, default DATA_DIR/media). */
  mediaDir: string;
  /** Resized images, made on first request (MEDIA_CACHE_DIR, default DATA_DIR/media-cache). */
  mediaCacheDir: string;
  /** Where rate-limit counters are kept: Redis when set, the process's memory otherwise. */
  redisUrl: string | undefined;
  /** SQLite in dataDir, or PostgreSQL when DATABASE_URL says so. */
  database: DatabaseConfig;
  appStore: AppStoreConfig;
  /** The SMS provider (production only: demo mode never sends a text). */
  sms: AliyunSmsConfig | null;
  /**
   * The keys phone numbers are encrypted and indexed with; required in production. Null in demo
   * mode without PHONE_ENCRYPTION_KEY: the server makes one and keeps it in DATA_DIR.
   */
  phoneKeys: PhoneKeys | null;
  /** WeChat's JS-SDK and open tag (WECHAT_*); null without them: pages behave as before. */
  wechat: WeChatConfig | null;
  /** The app's link domain and its association files (LINK_ORIGIN, APPLE_TEAM_ID, …). */
  appLinks: AppLinksConfig;
  /**
   * The app's platform (PLATFORM_*): required in production. Null in demo mode without them:
   * the stand-in platform is started and its settings used (docs/platform.md).
   */
  platform: PlatformConfig | null;
}

export interface AppStoreConfig {
  bundleId: string;
  /** The app's Apple id; required for the Production environment. */
  appAppleId: number | undefined;
  environment: 'Production' | 'Sandbox';
  /**
   * A directory of Apple's root certificates (DER `.cer` or PEM). Required in production; demo
   * mode trusts the StoreKit test chain instead and ignores it.
   */
  rootCertsDir: string | undefined;
}

/** Paths the entry point knows from its own location, used when the environment does not say. */
export interface ConfigDefaults {
  webDistDir: string;
  dataDir: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * @param defaults where the web build and the data are when WEB_DIST_DIR and DATA_DIR do not say;
 *   the entry point knows them from its own location (see default-paths.ts).
 * @param read how an `X_FILE` setting's file is read (tests); from the disk otherwise.
 */
export function loadConfig(given: Env, defaults: ConfigDefaults, read?: ReadText): Config {
  // Every secret setting X may be given as a file, X_FILE (secret-files.ts).
  const files = withSecretFiles(given, read);
  if (files.problems.length > 0) {
    throw new ConfigError(`Invalid configuration:\n${files.problems.join('\n')}`);
  }
  const env = files.env;
  // Node's own convention must not start the demo silently on a host meant for production.
  if (env.NODE_ENV?.trim() === 'production' && env.APP_MODE === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  APP_MODE: required when NODE_ENV is production: set APP_MODE=production (or APP_MODE=demo for the demo)',
    );
  }
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issueText(issue, '(environment)')}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const problems: string[] = [];
  if (values.APP_MODE === 'production') {
    if (!values.PUBLIC_ORIGIN) {
      problems.push('  PUBLIC_ORIGIN: required in production (e.g. https://www.example.com)');
    } else if (!values.PUBLIC_ORIGIN.startsWith('https://')) {
      problems.push('  PUBLIC_ORIGIN: must be an https:// origin in production');
    }
    // APPLE_APP_APPLE_ID only with Production (below): Sandbox transactions carry none.
    const apple = {
      APPLE_BUNDLE_ID: "the app's bundle id",
      APPLE_ENVIRONMENT: 'Production or Sandbox',
      APPLE_ROOT_CERTS_DIR: "a directory holding Apple's root certificates",
    } as const;
    for (const [name, what] of Object.entries(apple)) {
      if (values[name as keyof typeof apple] === undefined) {
        problems.push(`  ${name}: required in production (${what})`);
      }
    }
  } else {
    if (!LOOPBACK_HOSTS.has(values.HOST)) {
      problems.push(
        `  HOST: demo mode only listens on this machine (127.0.0.1, localhost or ::1), not ${values.HOST}; set APP_MODE=production to serve others`,
      );
    }
    if (!LOOPBACK_HOSTS.has(values.OPS_HOST)) {
      problems.push(
        `  OPS_HOST: demo mode only listens on this machine (127.0.0.1, localhost or ::1), not ${values.OPS_HOST}`,
      );
    }
  }
  const opsPort =
    values.OPS_PORT ?? (values.APP_MODE === 'demo' ? demoOpsPort(values.PORT) : ('off' as const));
  if (opsPort !== 'off' && opsPort > 65535) {
    problems.push(
      `  OPS_PORT: required when PORT is above ${65535 - DEMO_OPS_PORT_OFFSET} (demo mode's operators' listener is on PORT + ${DEMO_OPS_PORT_OFFSET}), or off`,
    );
  }
  if (opsPort !== 'off' && opsPort !== 0 && opsPort === values.PORT) {
    problems.push(
      `  OPS_PORT: the operators' listener needs a port of its own, not PORT (${values.PORT})`,
    );
  }
  const environment = values.APPLE_ENVIRONMENT ?? 'Sandbox';
  if (environment === 'Production' && values.APPLE_APP_APPLE_ID === undefined) {
    problems.push('  APPLE_APP_APPLE_ID: required when APPLE_ENVIRONMENT is Production');
  }
  const trustProxy = parseTrustProxy(values.TRUST_PROXY);
  if (!trustProxy.ok) problems.push(`  ${trustProxy.problem}`);
  const sms = readSmsConfig(env, values.APP_MODE);
  problems.push(...sms.problems);
  const wechat = readWeChatConfig(env, values.APP_MODE);
  problems.push(...wechat.problems);
  const platform = readPlatformConfig(env, values.APP_MODE);
  problems.push(...platform.problems);
  const phoneKeys = readPhoneKeys(env);
  problems.push(...phoneKeys.problems.map((problem) => `  ${problem}`));
  if (values.APP_MODE === 'production' && !phoneKeys.keys && phoneKeys.problems.length === 0) {
    problems.push(
      '  PHONE_ENCRYPTION_KEY: required in production (<key id>:<32 random bytes in base64>; phone numbers are stored encrypted with it)',
    );
  }
  const displayHost = values.HOST.includes(':') ? `[${values.HOST}]` : values.HOST;
  const publicOrigin = new URL(values.PUBLIC_ORIGIN ?? `http://${displayHost}:${values.PORT}`)
    .origin;
  const appLinks = readAppLinksConfig(env, {
    mode: values.APP_MODE,
    port: values.PORT,
    publicOrigin,
    appleBundleId: values.APPLE_BUNDLE_ID ?? DEMO_BUNDLE_ID,
  });
  problems.push(...appLinks.problems);
  if (problems.length > 0 || !appLinks.config)
    throw new ConfigError(`Invalid configuration:\n${problems.join('\n')}`);

  // Relative paths are taken from the working directory once, so nothing later depends on it.
  const dataDir = resolve(values.DATA_DIR ?? defaults.dataDir);
  return {
    mode: values.APP_MODE,
    host: values.HOST,
    port: values.PORT,
    logLevel: values.LOG_LEVEL,
    logFormat: values.LOG_FORMAT ?? (values.APP_MODE === 'demo' ? 'pretty' : 'json'),
    ops: opsPort === 'off' ? null : { host: values.OPS_HOST, port: opsPort },
    publicOrigin,
    webDistDir: values.WEB_DIST_DIR ?? defaults.webDistDir,
    dataDir,
    database:
      values.DATABASE_URL === undefined
        ? { engine: 'sqlite', file: dataPaths(dataDir).database }
        : { engine: 'postgres', url: values.DATABASE_URL, poolSize: values.DATABASE_POOL_SIZE },
    mediaDir: resolve(values.MEDIA_DIR ?? join(dataDir, 'media')),
    mediaCacheDir: resolve(values.MEDIA_CACHE_DIR ?? join(dataDir, 'media-cache')),
    redisUrl: values.REDIS_URL,
    trustProxy: trustProxy.ok ? trustProxy.value : false,
    appStore: {
      bundleId: values.APPLE_BUNDLE_ID ?? DEMO_BUNDLE_ID,
      appAppleId: values.APPLE_APP_APPLE_ID,
      environment,
      rootCertsDir:
        values.APPLE_ROOT_CERTS_DIR === undefined
          ? undefined
          : resolve(values.APPLE_ROOT_CERTS_DIR),
    },
    sms: sms.config,
    phoneKeys: phoneKeys.keys,
    wechat: wechat.config,
    appLinks: appLinks.config,
    platform: platform.config,
  };
}
