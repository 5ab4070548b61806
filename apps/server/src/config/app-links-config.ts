import site from '../../../../content/site.json' with { type: 'json' };
import { originHost } from './host-names.ts';

/**
 * The app's link domain (docs/decisions/0017-app-links-and-handoffs.md): the origin its Universal Links and App Links point at, and
 * what the association files say about the app. Production requires all three settings; demo mode
 * has harmless defaults, and without LINK_ORIGIN listens on PORT + 1 for the link domain, so the
 * whole journey works after `npm start`.
 */
export interface AppLinksConfig {
  /** The link domain's origin, e.g. https://link.guquan.example: requests for its host are its. */
  origin: string;
  /**
   * LINK_ORIGIN's `host[:port]` (URL.host: no default port). Which requests are the link domain's
   * is app-links/link-domain.ts's linkDomainMatcher: by host name, as nginx.
   */
  host: string;
  /** The Apple developer team id: the first half of the app id in apple-app-site-association. */
  appleTeamId: string;
  /** The app's bundle id (APPLE_BUNDLE_ID, which StoreKit transactions carry too). */
  appleBundleId: string;
  /** The Android app's package (content/site.json's appLinks.androidPackage). */
  androidPackage: string;
  /** SHA-256 fingerprints of the Android signing certificates, upper-case, colon-separated. */
  androidCertFingerprints: string[];
  /**
   * A port this server listens on besides PORT, for the link domain (demo mode's default
   * `http://127.0.0.1:<PORT + 1>`); undefined when LINK_ORIGIN is given: the link domain then
   * reaches whichever listener its requests are sent to.
   */
  extraListenPort: number | undefined;
}

/** Demo mode's team id: the right form, and no real team's. */
export const DEMO_APPLE_TEAM_ID = 'DEMOTEAM00';
/** Demo mode's fingerprint: no certificate has it. */
export const DEMO_ANDROID_CERT_FINGERPRINT = Array.from({ length: 32 }, () => '00').join(':');

const TEAM_ID = /^[A-Z0-9]{10}$/;

/** `AB:CD:…` (32 bytes) from any case, with or without colons; undefined when not a SHA-256. */
export function normaliseFingerprint(value: string): string | undefined {
  const hex = value.trim().replace(/:/g, '').toUpperCase();
  if (!/^[0-9A-F]{64}$/.test(hex)) return undefined;
  return hex.match(/../g)?.join(':');
}

/** An http(s) origin with nothing after it, or undefined. */
function parseOrigin(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  const bare =
    (url.protocol === 'http:' || url.protocol === 'https:') &&
    url.username === '' &&
    url.password === '' &&
    url.pathname === '/' &&
    url.search === '' &&
    url.hash === '';
  return bare ? url : undefined;
}

export function readAppLinksConfig(
  env: Record<string, string | undefined>,
  {
    mode,
    port,
    publicOrigin,
    appleBundleId,
  }: { mode: 'demo' | 'production'; port: number; publicOrigin: string; appleBundleId: string },
): { config: AppLinksConfig | null; problems: string[] } {
  const value = (name: string) => env[name]?.trim() ?? '';
  const problems: string[] = [];
  const production = mode === 'production';
  const required = (name: string, what: string) => {
    if (production && value(name) === '')
      problems.push(`  ${name}: required in production (${what})`);
  };
  required('LINK_ORIGIN', "the app's link domain, e.g. https://link.example.com");
  required('APPLE_TEAM_ID', 'the Apple developer team id, 10 letters and digits');
  required(
    'ANDROID_CERT_FINGERPRINTS',
    "the SHA-256 fingerprints of the app's signing certificates",
  );

  let origin: URL | undefined;
  let extraListenPort: number | undefined;
  if (value('LINK_ORIGIN') !== '') {
    origin = parseOrigin(value('LINK_ORIGIN'));
    if (!origin) problems.push('  LINK_ORIGIN: must be an origin such as https://link.example.com');
    else if (production && origin.protocol !== 'https:')
      problems.push('  LINK_ORIGIN: must be an https:// origin in production');
  } else if (!production) {
    // PORT 0 (any free port) leaves no port to add one to: such a server has no link listener.
    if (port > 0 && port < 65535) {
      extraListenPort = port + 1;
      origin = new URL(`http://127.0.0.1:${extraListenPort}`);
    } else {
      problems.push(
        '  LINK_ORIGIN: required when PORT is 0 or 65535 (demo mode listens on PORT + 1)',
      );
    }
  }
  if (origin) {
    // Compared as requests are told apart (config/host-names.ts): `LINK.example.com.` is
    // `link.example.com`.
    const link = originHost(origin.origin);
    const site = originHost(publicOrigin);
    // A Universal Link to the page's own domain stays in Safari: the link domain is another host.
    if (link.name === site.name && link.port === site.port)
      problems.push(
        '  LINK_ORIGIN: must be another host than PUBLIC_ORIGIN (or a tap never opens the app)',
      );
    else if (production && link.name === site.name)
      problems.push('  LINK_ORIGIN: must be another host name than PUBLIC_ORIGIN in production');
  }

  const teamId = value('APPLE_TEAM_ID') || (production ? '' : DEMO_APPLE_TEAM_ID);
  if (teamId !== '' && !TEAM_ID.test(teamId))
    problems.push('  APPLE_TEAM_ID: must be the team id, 10 capital letters and digits');

  const listed = value('ANDROID_CERT_FINGERPRINTS');
  const fingerprints = (
    listed === '' ? (production ? [] : [DEMO_ANDROID_CERT_FINGERPRINT]) : listed.split(',')
  )
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const normalised = fingerprints.map(normaliseFingerprint);
  if (normalised.some((entry) => entry === undefined))
    problems.push(
      '  ANDROID_CERT_FINGERPRINTS: must be SHA-256 fingerprints (64 hex digits, colons allowed), comma-separated',
    );
  if (listed !== '' && fingerprints.length === 0)
    problems.push('  ANDROID_CERT_FINGERPRINTS: names no fingerprint');

  if (problems.length > 0 || !origin) return { config: null, problems };
  return {
    config: {
      origin: origin.origin,
      host: origin.host,
      appleTeamId: teamId,
      appleBundleId,
      androidPackage: site.appLinks.androidPackage,
      androidCertFingerprints: [...new Set(normalised.filter((entry) => entry !== undefined))],
      extraListenPort,
    },
    problems: [],
  };
}
