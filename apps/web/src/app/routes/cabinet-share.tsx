import { CabinetView } from '../../features/share/cabinet-view/cabinet-view';
import { shareHead } from '../../features/share/share-head';
import { shareLoader } from '../../features/share/share-loader';
import { SharePage } from '../../features/share/share-page/share-page';
import { shareShouldRevalidate } from '../../features/share/share-revalidate';

export const loader = shareLoader('cabinet');
export const head = shareHead;
export const shouldRevalidate = shareShouldRevalidate;

export function Component() {
  return <SharePage kind="cabinet">{(cabinet) => <CabinetView cabinet={cabinet} />}</SharePage>;
}
