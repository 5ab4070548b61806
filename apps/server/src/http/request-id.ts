import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import type { TrustProxy } from '../config/trust-proxy.ts';

/**
 * Every request carries an id: the one nginx gave it (`X-Request-Id`, from a proxy TRUST_PROXY
 * names), else one of the server's own. Logs carry it as `reqId`, every answer as `X-Request-Id`,
 * and error answers in their body, so a visitor's report finds its log lines.
 */
export const REQUEST_ID_HEADER = 'x-request-id';

/** nginx's `$request_id` is 32 hex digits; a UUID has dashes. Anything else is not taken. */
const ACCEPTED_ID = /^[A-Za-z0-9._:-]{8,128}$/;

function trustedProxies(trustProxy: TrustProxy): BlockList | undefined {
  if (trustProxy === false) return undefined;
  const list = new BlockList();
  for (const entry of trustProxy) {
    const [address = '', prefix] = entry.split('/');
    const family = isIPv4(address) ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** `::ffff:127.0.0.1` (an IPv4 client on a dual-stack socket) as the IPv4 address it is. */
function plainAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return { address: mapped[1], family: 'ipv4' };
  return { address, family: isIPv4(address) ? 'ipv4' : 'ipv6' };
}

/** Fastify's `genReqId`: the proxy's id when a trusted proxy sent one, else a new UUID. */
export function requestIdGenerator(trustProxy: TrustProxy): (request: IncomingMessage) => string {
  const proxies = trustedProxies(trustProxy);
  return (request) => {
    const given = request.headers[REQUEST_ID_HEADER];
    const remote = request.socket.remoteAddress;
    if (proxies && typeof given === 'string' && ACCEPTED_ID.test(given) && remote) {
      const { address, family } = plainAddress(remote);
      if (proxies.check(address, family)) return given;
    }
    return randomUUID();
  };
}
