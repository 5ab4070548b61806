import { z } from 'zod';

/**
 * The app's platform (PRODUCT.md, "The app's platform"): where its tokens, events, images,
 * points and our events out go. All required in production. In demo mode either all are given
 * (the site uses that platform and seeds nothing) or none (`npm start` runs the stand-in
 * platform on loopback and fills these in: config is then `null` here).
 */
export const PLATFORM_ENV_VARS = {
  PLATFORM_WEBHOOK_SECRETS:
    'the secrets its deliveries are signed with: whsec_<base64>, comma-separated',
  PLATFORM_ISSUER: "its tokens' issuer (iss)",
  PLATFORM_JWKS_URL: "the URL of its tokens' public keys (JWKS)",
  PLATFORM_MEDIA_ORIGINS: 'the origins images are fetched from, comma-separated',
  PLATFORM_API_URL: 'the base URL of its API (points)',
  PLATFORM_API_TOKEN: 'the service token for its API',
  PLATFORM_EVENTS_URL: 'where the site sends its events',
  PLATFORM_EVENTS_SECRET: 'the secret the events sent are signed with: whsec_<base64>',
} as const;

type PlatformEnvVar = keyof typeof PLATFORM_ENV_VARS;

export interface PlatformConfig {
  /** One or more `whsec_<base64>` secrets (more than one while a secret is rotated). */
  webhookSecrets: string[];
  issuer: string;
  jwksUrl: string;
  /** Origins exactly (scheme, host and port), as `URL.origin` writes them. */
  mediaOrigins: string[];
  apiUrl: string;
  apiToken: string;
  eventsUrl: string;
  eventsSecret: string;
}

const SECRET = /^whsec_[A-Za-z0-9+/]+={0,2}$/;

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' });

function secretProblem(value: string): string | undefined {
  if (!SECRET.test(value)) return 'must be whsec_ followed by base64';
  const key = Buffer.from(value.slice('whsec_'.length), 'base64');
  return key.length >= 24 ? undefined : 'must hold at least 24 random bytes';
}

/** An origin as the platform writes it in a setting, or the problem with it. */
function originOf(value: string): { origin: string } | { problem: string } {
  const parsed = httpUrl.safeParse(value);
  if (!parsed.success) return { problem: `${value} is not an http:// or https:// origin` };
  const url = new URL(parsed.data);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) {
    return { problem: `${value} must be an origin only (scheme, host and port)` };
  }
  return { origin: url.origin };
}

/**
 * Whether a URL's host is this machine. Production reaches the platform over https only, but
 * plain http to loopback is allowed: nothing crosses a network there (a sidecar or a tunnel
 * beside the server, and the cluster tests' stand-in platform; docs/configuration.md).
 */
export function isLoopbackUrl(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const host = new URL(value).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Production's rule for the platform's URLs: https, or http to loopback. */
function insecureInProduction(value: string, mode: 'demo' | 'production'): boolean {
  return mode === 'production' && !value.startsWith('https://') && !isLoopbackUrl(value);
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** Whether `url` is on one of `origins`: scheme, host and port exactly. */
export function isOnMediaOrigins(url: string, origins: readonly string[]): boolean {
  if (!URL.canParse(url)) return false;
  const parsed = new URL(url);
  if (parsed.username || parsed.password) return false;
  return origins.includes(parsed.origin);
}

export function readPlatformConfig(
  env: Record<string, string | undefined>,
  mode: 'demo' | 'production',
): { config: PlatformConfig | null; problems: string[] } {
  const names = Object.keys(PLATFORM_ENV_VARS) as PlatformEnvVar[];
  const value = (name: PlatformEnvVar) => env[name]?.trim() ?? '';
  const missing = names.filter((name) => value(name) === '');
  if (mode === 'demo' && missing.length === names.length) return { config: null, problems: [] };
  const why =
    mode === 'production'
      ? 'required in production'
      : 'required with the other PLATFORM_* settings (or leave them all out for the stand-in platform)';
  const problems = missing.map((name) => `  ${name}: ${why} (${PLATFORM_ENV_VARS[name]})`);

  const webhookSecrets = list(value('PLATFORM_WEBHOOK_SECRETS'));
  for (const secret of webhookSecrets) {
    const problem = secretProblem(secret);
    if (problem) problems.push(`  PLATFORM_WEBHOOK_SECRETS: each ${problem}`);
  }
  if (value('PLATFORM_EVENTS_SECRET') !== '') {
    const problem = secretProblem(value('PLATFORM_EVENTS_SECRET'));
    if (problem) problems.push(`  PLATFORM_EVENTS_SECRET: ${problem}`);
  }
  for (const name of ['PLATFORM_JWKS_URL', 'PLATFORM_API_URL', 'PLATFORM_EVENTS_URL'] as const) {
    if (value(name) !== '' && !httpUrl.safeParse(value(name)).success) {
      problems.push(`  ${name}: must be an http:// or https:// URL`);
    } else if (value(name) !== '' && insecureInProduction(value(name), mode)) {
      problems.push(`  ${name}: must be an https:// URL in production (http only to loopback)`);
    }
  }
  const mediaOrigins: string[] = [];
  for (const item of list(value('PLATFORM_MEDIA_ORIGINS'))) {
    const origin = originOf(item);
    if ('problem' in origin) problems.push(`  PLATFORM_MEDIA_ORIGINS: ${origin.problem}`);
    else if (insecureInProduction(origin.origin, mode)) {
      problems.push(
        `  PLATFORM_MEDIA_ORIGINS: ${item} must be an https:// origin in production (http only to loopback)`,
      );
    } else mediaOrigins.push(origin.origin);
  }
  if (problems.length > 0) return { config: null, problems };
  return {
    config: {
      webhookSecrets,
      issuer: value('PLATFORM_ISSUER'),
      jwksUrl: value('PLATFORM_JWKS_URL'),
      mediaOrigins,
      apiUrl: value('PLATFORM_API_URL').replace(/\/+$/, ''),
      apiToken: value('PLATFORM_API_TOKEN'),
      eventsUrl: value('PLATFORM_EVENTS_URL'),
      eventsSecret: value('PLATFORM_EVENTS_SECRET'),
    },
    problems: [],
  };
}
