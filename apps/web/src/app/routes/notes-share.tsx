import {
  NoteSharePage,
  shareHead,
  shareLoader,
  shareShouldRevalidate,
} from '../../features/share/share-pages';

export const loader = shareLoader('note');
export const head = shareHead;
export const shouldRevalidate = shareShouldRevalidate;

export function Component() {
  return <NoteSharePage />;
}
