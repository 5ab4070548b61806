import { GoodsView } from '../../features/share/goods-view/goods-view';
import { shareHead } from '../../features/share/share-head';
import { shareLoader } from '../../features/share/share-loader';
import { SharePage } from '../../features/share/share-page/share-page';
import { shareShouldRevalidate } from '../../features/share/share-revalidate';

export const loader = shareLoader('goods');
export const head = shareHead;
export const shouldRevalidate = shareShouldRevalidate;

export function Component() {
  return <SharePage kind="goods">{(goods) => <GoodsView goods={goods} />}</SharePage>;
}
