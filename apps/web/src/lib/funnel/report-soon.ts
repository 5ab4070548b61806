import type { PageEvent } from '@guquan/contract/funnel-events';
import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * A share event whose page stays (an item viewed, the guide shown, a poster opened, a link
 * copied), reported once the reporting code has come: it loads on the first report, after the
 * page has started, so a share page does not start with it (the events go by beacon, in batches,
 * anyway). A tap that leaves the page reports synchronously from the tap code (app-taps.ts),
 * which carries the reporting code. Without its code, the count is lost, nothing else.
 */
export function reportShareEventSoon(event: PageEvent, kind: ShareKind, id: string | null): void {
  void import('./report-share-event').then(
    ({ reportShareEvent }) => {
      reportShareEvent(event, kind, id);
    },
    () => undefined,
  );
}

/**
 * Counts one view of the item on screen, once per item in this tab (view-memory.ts: coming back
 * from the link domain or a store, or reloading, is the same visit), once the code has come.
 */
export function reportViewSoon(kind: ShareKind, id: string | null): void {
  void import('./report-view').then(
    ({ reportView }) => {
      reportView(kind, id);
    },
    () => undefined,
  );
}
