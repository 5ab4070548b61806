import type { PlatformConfig } from '../config/platform-config.ts';

/**
 * What a demo server and the stand-in platform (stand-in/) agree on: the issuer of the stand-in's
 * tokens and the paths of its demo-only routes, which the stand-in serves and a demo server calls
 * through the functions below.
 *
 * The issuer is fixed, not the stand-in's address (which changes with the port), so a token
 * survives a restart of the demo.
 */
export const STAND_IN_ISSUER = 'urn:guquan:stand-in-platform';
/** A token for the demo log-in (stand-in/stand-in-token-routes.ts). */
export const DEMO_TOKENS_PATH = '/demo/tokens';
/** The demo community delivered to a site (stand-in/demo-community-routes.ts). */
export const DEMO_COMMUNITY_DELIVERIES_PATH = '/demo/community-deliveries';

/** How long a demo server waits for the stand-in platform to answer. */
const STAND_IN_TIMEOUT_MS = 5_000;

/** A request to the stand-in at `PLATFORM_API_URL`, with the service token, within 5 s. */
function requestStandIn(
  platform: PlatformConfig,
  path: string,
  init: { method?: 'POST'; headers?: Record<string, string>; body?: string } = {},
): Promise<Response> {
  return fetch(`${platform.apiUrl}${path}`, {
    ...init,
    headers: { ...init.headers, authorization: `Bearer ${platform.apiToken}` },
    signal: AbortSignal.timeout(STAND_IN_TIMEOUT_MS),
  });
}

/**
 * A request of a demo server to the stand-in platform's demo-only routes (a token for the demo
 * log-in, the demo community, the ledger's and the events receiver's faults): at
 * `PLATFORM_API_URL`, with the service token, within 5 s.
 */
export function postToStandIn(
  platform: PlatformConfig,
  path: string,
  body: unknown,
): Promise<Response> {
  return requestStandIn(platform, path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A read of the stand-in's demo-only routes (the ledger, the events received), as postToStandIn. */
export function getFromStandIn(platform: PlatformConfig, path: string): Promise<Response> {
  return requestStandIn(platform, path);
}
