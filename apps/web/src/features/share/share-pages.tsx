import { CabinetView } from './cabinet-view/cabinet-view';
import { GoodsView } from './goods-view/goods-view';
import { NoteView } from './note-view/note-view';
import { SharePage } from './share-page/share-page';

/**
 * The three share pages, in one module on purpose: their routes then share one chunk (and one
 * stylesheet) instead of several small ones, so a page loads fewer files and the start-up entry
 * lists fewer names to preload.
 */
export function GoodsSharePage() {
  return <SharePage kind="goods">{(goods) => <GoodsView goods={goods} />}</SharePage>;
}

export function CabinetSharePage() {
  return <SharePage kind="cabinet">{(cabinet) => <CabinetView cabinet={cabinet} />}</SharePage>;
}

export function NoteSharePage() {
  return <SharePage kind="note">{(note) => <NoteView note={note} />}</SharePage>;
}

export { shareHead } from './share-head';
export { shareLoader } from './share-loader';
export { shareShouldRevalidate } from './share-revalidate';
