import { createHash } from 'node:crypto';
import type { ShareKind } from '@guquan/contract/share-paths';
import {
  DEMO_CABINETS,
  DEMO_GOODS,
  DEMO_NOTES,
  type DemoCabinet,
  type DemoNote,
} from './demo-content.ts';

/**
 * The public ids of the demo content's items (demo-content.ts): those it names, or ids derived
 * from the item, the same at every call. The stand-in platform sends the items under them
 * (stand-in/demo-community.ts); the site's own demo records name them (site-demo-records.ts).
 */

/** An id for a demo item the tests never link to: 16 base64url characters, fixed by `label`. */
export function stableDemoId(label: string): string {
  return createHash('sha256').update(`guquan-demo:${label}`).digest('base64url').slice(0, 16);
}

const goodsIdOf = new Map(
  DEMO_GOODS.map((goods) => [goods.key, goods.publicId ?? stableDemoId(`goods:${goods.key}`)]),
);
export function goodsId(key: string): string {
  const id = goodsIdOf.get(key);
  if (id === undefined) throw new Error(`Demo data names unknown goods ${key}`);
  return id;
}

export function cabinetId(cabinet: DemoCabinet): string {
  return cabinet.publicId ?? stableDemoId(`cabinet:${cabinet.owner}:${cabinet.name}`);
}

export function noteId(note: DemoNote): string {
  return note.publicId ?? stableDemoId(`note:${note.author}:${note.title}`);
}

/** The public items anyone may see (not private, not removed), each kind in the story's order. */
export function demoSharedItems(): Record<ShareKind, string[]> {
  const shown = (item: { visibility: string; removed: boolean }) =>
    item.visibility === 'public' && !item.removed;
  return {
    goods: DEMO_GOODS.filter(shown).map((goods) => goodsId(goods.key)),
    cabinet: DEMO_CABINETS.filter(shown).map(cabinetId),
    note: DEMO_NOTES.filter(shown).map(noteId),
  };
}
