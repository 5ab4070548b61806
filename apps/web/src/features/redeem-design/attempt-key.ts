/**
 * The idempotency key of the redemption attempt in progress, per user and design. Made when the
 * user confirms, sent with every retry of that attempt, kept in sessionStorage so that a reload
 * of the page (or of the web view) retries the same attempt; dropped once the server has given
 * a definite answer.
 */
const memory = new Map<string, string>();

function storageKey(userId: string, designId: string): string {
  return `guquan:redeem:${userId}:${designId}`;
}

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage blocked: the key lives as long as the page
  }
}

export function attemptKey(userId: string, designId: string): string {
  const name = storageKey(userId, designId);
  const store = storage();
  let stored: string | null | undefined;
  try {
    stored = store?.getItem(name);
  } catch {
    stored = undefined;
  }
  const key = stored ?? memory.get(name) ?? crypto.randomUUID();
  memory.set(name, key);
  try {
    store?.setItem(name, key);
  } catch {
    // Full or blocked storage: the in-memory copy still covers retries on this page.
  }
  return key;
}

export function endAttempt(userId: string, designId: string): void {
  const name = storageKey(userId, designId);
  memory.delete(name);
  try {
    storage()?.removeItem(name);
  } catch {
    // Nothing stored.
  }
}
