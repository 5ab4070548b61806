import type { ServerOptions } from 'node:http';

/**
 * How long the server waits for a client, so a slow or stalled one cannot hold a connection (and
 * its memory) for ever. Node checks the header and request deadlines every `checkIntervalMs`,
 * so a deadline is enforced within that much of its value.
 */
export interface ServerTimeouts {
  /** All the request's headers must have arrived by then (slow-header attacks). */
  headersMs: number;
  /** The whole request, headers and body, must have arrived by then; answered 408. */
  requestMs: number;
  /** A connection with no traffic at all (mid-request or mid-response) is closed. */
  idleMs: number;
  /**
   * An idle keep-alive connection is kept this long between requests. Longer than the proxy's
   * own upstream keep-alive (nginx's upstream `keepalive_timeout`: 60 s by default, 30 s in
   * deploy/), so nginx always closes first and never sends a request on a connection the server is closing (a 502).
   */
  keepAliveMs: number;
  checkIntervalMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = {
  headersMs: 10_000,
  // Bodies are at most 64 kB: 30 s allows a poor mobile connection and nothing slower.
  requestMs: 30_000,
  idleMs: 60_000,
  keepAliveMs: 75_000,
  checkIntervalMs: 2_000,
};

/** The Fastify (and Node http server) options that apply them. */
export function serverTimeoutOptions(timeouts: ServerTimeouts): {
  connectionTimeout: number;
  keepAliveTimeout: number;
  requestTimeout: number;
  http: ServerOptions;
} {
  return {
    connectionTimeout: timeouts.idleMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    requestTimeout: timeouts.requestMs,
    http: {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
  };
}
