import type { PlatformConfig } from '../config/platform-config.ts';

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
