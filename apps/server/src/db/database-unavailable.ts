/**
 * Whether an error means the database cannot be reached right now (PostgreSQL stopped,
 * restarting, out of connections, or the network to it down), as opposed to a bug or a bad
 * query. Such a request is answered 503, and the pool reconnects by itself once it is back.
 */
const UNAVAILABLE_CODES = new Set([
  // The network to the server.
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  // PostgreSQL's class 08 (connection exception) and 57P (operator intervention: shutting down,
  // crash recovery, starting up), and too_many_connections.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** What node-postgres says, without a code, when a connection drops or never comes. */
const UNAVAILABLE_MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error/i,
  /the database system is (starting up|shutting down)/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth += 1) {
    const code = 'code' in current ? current.code : undefined;
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    const message = current.message;
    if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = current.cause;
  }
  return false;
}
