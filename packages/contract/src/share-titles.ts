import type { ShareItems } from './share.ts';
import type { ShareKind } from './share-paths.ts';

/**
 * What an item is called wherever it is named (previews, share texts, pictures, the simulated
 * app): goods and cabinets by their name, notes by their title. Plain code without zod.
 */
const TITLES: { readonly [K in ShareKind]: (item: ShareItems[K]) => string } = {
  goods: (goods) => goods.name,
  cabinet: (cabinet) => cabinet.name,
  note: (note) => note.title,
};

export function shareTitle<K extends ShareKind>(kind: K, item: ShareItems[K]): string {
  return TITLES[kind](item);
}
