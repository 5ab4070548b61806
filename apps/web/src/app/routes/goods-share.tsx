import {
  GoodsSharePage,
  shareHead,
  shareLoader,
  shareShouldRevalidate,
} from '../../features/share/share-pages';

export const loader = shareLoader('goods');
export const head = shareHead;
export const shouldRevalidate = shareShouldRevalidate;

export function Component() {
  return <GoodsSharePage />;
}
