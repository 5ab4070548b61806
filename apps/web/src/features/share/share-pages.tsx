import type { ReactNode } from 'react';
import { useLoaderData } from 'react-router';
import type { ShareItems } from '@guquan/contract/share';
import type { ShareKind } from '@guquan/contract/share-paths';
import { CabinetView } from './cabinet-view/cabinet-view';
import { GoodsView } from './goods-view/goods-view';
import { NoteView } from './note-view/note-view';
import type { ShareLoaderData } from './share-loader';
import { SharePage } from './share-page/share-page';
import { prepareShareTexts } from './share-texts';

/**
 * What each kind of share shows once its item is there. The share pages are one module on
 * purpose: their routes share one chunk (and one stylesheet), so a page loads fewer files.
 */
const SHARE_VIEWS: { [K in ShareKind]: (item: ShareItems[K]) => ReactNode } = {
  goods: (goods) => <GoodsView goods={goods} />,
  cabinet: (cabinet) => <CabinetView cabinet={cabinet} />,
  note: (note) => <NoteView note={note} />,
};

/** The view of a kind's item, typed for that kind. */
function viewOf<K extends ShareKind>(kind: K): (item: ShareItems[K]) => ReactNode {
  return SHARE_VIEWS[kind];
}

/** The share page of the current route: its loader's data names the kind. */
export function ShareRoutePage() {
  const { kind } = useLoaderData<ShareLoaderData<ShareKind>>();
  return <SharePage kind={kind}>{viewOf(kind)}</SharePage>;
}

/**
 * What a share page needs before it renders (its route's `prepare`): the texts of its language.
 * (The skeleton, whose code comes later, is never drawn by the server: it has the item.)
 */
export async function prepareSharePages(): Promise<void> {
  await prepareShareTexts();
}

export { shareLoader } from './share-loader';
export { shareShouldRevalidate } from './share-revalidate';
