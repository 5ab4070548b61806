import type { PlatformConfig } from '../config/platform-config.ts';

/** How long a demo server waits for the stand-in platform to answer. */
const STAND_IN_TIMEOUT_MS = 5_000;

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
  return fetch(`${platform.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${platform.apiToken}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(STAND_IN_TIMEOUT_MS),
  });
}

/** A read of the stand-in's demo-only routes (the ledger, the events received), as postToStandIn. */
export function getFromStandIn(platform: PlatformConfig, path: string): Promise<Response> {
  return fetch(`${platform.apiUrl}${path}`, {
    headers: { authorization: `Bearer ${platform.apiToken}` },
    signal: AbortSignal.timeout(STAND_IN_TIMEOUT_MS),
  });
}
