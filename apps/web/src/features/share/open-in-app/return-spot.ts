import type { ShareKind } from '@guquan/contract/share-paths';

/**
 * Where the visitor was on a share page when "open" left for the link domain: the scroll position
 * and the image on screen, so that the page the link domain sends back to (the app is missing, a
 * new document at the top) puts them back there. In the tab's own sessionStorage under one key
 * (`guquan.share.returnSpot` = `{"item":"<kind>:<id>","scrollY":…,"image":…}`), for one item,
 * taken (read and removed) by the page it returns to; never sent anywhere.
 */
export const RETURN_SPOT_KEY = 'guquan.share.returnSpot';

export interface ReturnSpot {
  scrollY: number;
  /** The gallery's image (counted from 0), when the page has one. */
  image?: number;
}

function itemOf(kind: ShareKind, id: string): string {
  return `${kind}:${id}`;
}

export function saveReturnSpot(kind: ShareKind, id: string, spot: ReturnSpot): void {
  try {
    sessionStorage.setItem(RETURN_SPOT_KEY, JSON.stringify({ item: itemOf(kind, id), ...spot }));
  } catch {
    // Storage refused: the page comes back at the top, as it did before.
  }
}

function wholeNumber(value: unknown, max: number): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= max
    ? value
    : undefined;
}

/**
 * The spot saved for this item, removed as it is read (a reload later starts where the browser
 * puts it); undefined when none was saved for it or what is kept is not one.
 */
export function takeReturnSpot(kind: ShareKind, id: string): ReturnSpot | undefined {
  let raw: string | null;
  try {
    raw = sessionStorage.getItem(RETURN_SPOT_KEY);
    if (raw === null) return undefined;
    sessionStorage.removeItem(RETURN_SPOT_KEY);
  } catch {
    return undefined;
  }
  let saved: unknown;
  try {
    saved = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (typeof saved !== 'object' || saved === null) return undefined;
  const record = saved as Record<string, unknown>;
  if (record.item !== itemOf(kind, id)) return undefined;
  const scrollY = wholeNumber(record.scrollY, 1_000_000);
  if (scrollY === undefined) return undefined;
  const image = wholeNumber(record.image, 99);
  return image === undefined ? { scrollY } : { scrollY, image };
}
