import { LRUCache } from 'lru-cache';

/**
 * How many pages a client may have rendered for it (docs/decisions/0014-one-off-pages.md). A page
 * already rendered costs a lookup; rendering one costs tens of milliseconds of CPU. Only renders
 * of pages that name an item of their own are counted (a share page of a real item not rendered
 * in the last moments): a visitor has few, a scan of items' pages has one per item. Each client has
 * a bucket of `burst` renders that refills at `perSecond`; when it is empty, the page waits.
 *
 * Counted per server, in its memory: what it protects is that server's CPU, and a miss then costs
 * no round trip to Redis. A token bucket of renders, not a window of requests, so not
 * @fastify/rate-limit (docs/decisions/0020-one-cache-library.md); its clients are kept in an
 * lru-cache.
 */
export interface RenderBudgetOptions {
  burst: number;
  perSecond: number;
  /** Clients remembered at most; the least recently seen go first (a full bucket is no loss). */
  maxClients?: number;
  /** Milliseconds; tests move it. */
  now?: () => number;
}

export interface RenderBudget {
  /** Takes one render from the client's bucket; false when it is empty. */
  take(client: string): boolean;
}

/**
 * The client a render is counted for: its address, and for IPv6 its /64 network, which one
 * subscriber usually holds whole (counting single addresses would let it walk through them).
 */
export function renderClientOf(ip: string): string {
  if (!ip.includes(':') || ip.toLowerCase().startsWith('::ffff:')) return ip;
  const address = ip.split('%', 1)[0] ?? '';
  const [head = '', tail] = address.split('::', 2);
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  // An embedded IPv4 address at the end spells the last two groups.
  const width = (groups: string[]) => groups.length + (groups.at(-1)?.includes('.') ? 1 : 0);
  const front = groupsOf(head);
  const back = tail === undefined ? [] : groupsOf(tail);
  const zeros = tail === undefined ? 0 : 8 - width(front) - width(back);
  const groups = [...front, ...Array<string>(Math.max(0, zeros)).fill('0'), ...back];
  const network = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${network.join(':')}::/64`;
}

export function createRenderBudget({
  burst,
  perSecond,
  maxClients = 10_000,
  now = () => Date.now(),
}: RenderBudgetOptions): RenderBudget {
  // Each client's bucket as it was last seen; a full bucket is what an unknown client gets.
  const buckets = new LRUCache<string, { tokens: number; at: number }>({ max: maxClients });
  return {
    take(client) {
      const at = now();
      const known = buckets.get(client);
      const tokens = known
        ? Math.min(burst, known.tokens + ((at - known.at) / 1000) * perSecond)
        : burst;
      const allowed = tokens >= 1;
      buckets.set(client, { tokens: allowed ? tokens - 1 : tokens, at });
      return allowed;
    },
  };
}
