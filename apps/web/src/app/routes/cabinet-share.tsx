import {
  CabinetSharePage,
  shareHead,
  shareLoader,
  shareShouldRevalidate,
} from '../../features/share/share-pages';

export const loader = shareLoader('cabinet');
export const head = shareHead;
export const shouldRevalidate = shareShouldRevalidate;

export function Component() {
  return <CabinetSharePage />;
}
