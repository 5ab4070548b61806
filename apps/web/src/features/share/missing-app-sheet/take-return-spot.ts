import type { ShareKind } from '@guquan/contract/share-paths';
import { RETURN_SPOT_KEY, returnSpotItem, type ReturnSpot } from '../open-in-app/return-spot';

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
  if (record.item !== returnSpotItem(kind, id)) return undefined;
  const scrollY = wholeNumber(record.scrollY, 1_000_000);
  if (scrollY === undefined) return undefined;
  const image = wholeNumber(record.image, 99);
  return image === undefined ? { scrollY } : { scrollY, image };
}
