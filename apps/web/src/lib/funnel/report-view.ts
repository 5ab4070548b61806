import type { ShareKind } from '@guquan/contract/share-paths';
import { reportShareEvent } from './report-share-event';
import { takeFirstView } from './view-memory';

/** The first view of an item in this tab, reported (report-soon.ts loads this after start). */
export function reportView(kind: ShareKind, id: string | null): void {
  if (takeFirstView(kind, id)) reportShareEvent('viewed', kind, id);
}
