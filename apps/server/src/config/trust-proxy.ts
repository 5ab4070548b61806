import { isIP } from 'node:net';

/**
 * Which proxies may tell the server a client's address through `X-Forwarded-For`: none (false),
 * or the proxies at these addresses and networks. Never "all": then the left-most entry, which
 * any client can write, would become the address rate limits key on. Not a hop count either:
 * it cannot tell a proxy from a client that reached the server directly, and Fastify 5.12
 * ignores `X-Forwarded-For` altogether when given one (every client would share the proxy's
 * address and its rate limits).
 */
export type TrustProxy = false | string[];

export type TrustProxyResult = { ok: true; value: TrustProxy } | { ok: false; problem: string };

const WHAT_TO_GIVE =
  'give the addresses or networks of the proxies in front of the server (e.g. 127.0.0.1 for an nginx on this machine, or 10.0.0.0/8,fd00::/8)';

function isAddressOrNetwork(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Reads TRUST_PROXY: unset or `false`, or a comma-separated list of addresses/CIDRs. */
export function parseTrustProxy(raw: string | undefined): TrustProxyResult {
  const value = raw?.trim() ?? '';
  if (value === '' || value === 'false' || value === '0') return { ok: true, value: false };
  if (value === 'true') {
    return {
      ok: false,
      problem: `TRUST_PROXY: true would trust every hop, so any client could forge its address; ${WHAT_TO_GIVE}`,
    };
  }
  if (/^\d+$/.test(value)) {
    return {
      ok: false,
      problem: `TRUST_PROXY: a hop count cannot tell a proxy from a client that reaches the server directly (and Fastify ignores it); ${WHAT_TO_GIVE}`,
    };
  }
  const entries = value.split(',').map((entry) => entry.trim());
  const bad = entries.filter((entry) => !isAddressOrNetwork(entry));
  if (bad.length > 0) {
    return {
      ok: false,
      problem: `TRUST_PROXY: not an address or network: ${bad.map((entry) => JSON.stringify(entry.slice(0, 60))).join(', ')}; ${WHAT_TO_GIVE}`,
    };
  }
  return { ok: true, value: entries };
}
