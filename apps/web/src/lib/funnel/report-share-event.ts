import {
  EVENTS_PATH,
  MAX_BEACON_EVENTS,
  type PageEvent,
  type PageEventReport,
} from '@guquan/contract/funnel-events';
import { parseShareId, type ShareKind } from '@guquan/contract/share-paths';

/**
 * A share page's report of what happened on it (viewed, "open in app" tapped, …) for the share
 * funnel (docs/decisions/0018-share-funnel-and-operators-listener.md): only the event, the kind of share and the item's public id; the server
 * adds the channel from the User-Agent and keeps nothing else. Sent with navigator.sendBeacon as
 * text/plain JSON (no CORS preflight, and it survives the page going away: a tap that opens the
 * app or the store hides or unloads the page). Events within half a second go together. Plain
 * code: no zod reaches the page (the server checks the body against the contract's schema).
 */
const BATCH_DELAY_MS = 500;

let queue: PageEventReport[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

function send(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  while (queue.length > 0) {
    const events = queue.slice(0, MAX_BEACON_EVENTS);
    queue = queue.slice(MAX_BEACON_EVENTS);
    try {
      navigator.sendBeacon(EVENTS_PATH, JSON.stringify({ events }));
    } catch {
      // A browser that refuses (too much queued, a policy): the count is lost, nothing else.
    }
  }
}

function sendWhenHidden(): void {
  if (document.visibilityState === 'hidden') send();
}

/**
 * Reports one event about a share item; does nothing on the server or without sendBeacon. With
 * `sendNow`, it goes at once with whatever waits (the page is about to navigate away: leaving
 * it to `pagehide` is not reliable in every browser).
 */
export function reportShareEvent(
  event: PageEvent,
  kind: ShareKind,
  id: string | null,
  { sendNow = false }: { sendNow?: boolean } = {},
): void {
  if (typeof navigator === 'undefined' || typeof navigator.sendBeacon !== 'function') return;
  const publicId = parseShareId(id);
  if (!publicId) return;
  queue.push({ event, kind, id: publicId });
  if (!listening) {
    listening = true;
    window.addEventListener('pagehide', send);
    document.addEventListener('visibilitychange', sendWhenHidden);
  }
  if (sendNow || queue.length >= MAX_BEACON_EVENTS) send();
  else timer ??= setTimeout(send, BATCH_DELAY_MS);
}

/** Sends what is queued now (tests). */
export function sendQueuedShareEvents(): void {
  send();
}
