import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * Where the visitor was on a share page when "open" left for the link domain: the scroll position
 * and the image on screen, so that the page the link domain sends back to (the app is missing, a
 * new document at the top) puts them back there. In the tab's own sessionStorage under one key
 * (`guquan.share.returnSpot` = `{"item":"<kind>:<id>","scrollY":…,"image":…}`), for one item,
 * taken (read and removed) by the page it returns to (missing-app-sheet/take-return-spot.ts,
 * loaded with the sheet); never sent anywhere.
 */
export const RETURN_SPOT_KEY = 'guquan.share.returnSpot';

export interface ReturnSpot {
  scrollY: number;
  /** The gallery's image (counted from 0), when the page has one. */
  image?: number;
}

export function returnSpotItem(kind: ShareKind, id: string): string {
  return `${kind}:${id}`;
}

export function saveReturnSpot(kind: ShareKind, id: string, spot: ReturnSpot): void {
  try {
    sessionStorage.setItem(
      RETURN_SPOT_KEY,
      JSON.stringify({ item: returnSpotItem(kind, id), ...spot }),
    );
  } catch {
    // Storage refused: the page comes back at the top, as it did before.
  }
}
