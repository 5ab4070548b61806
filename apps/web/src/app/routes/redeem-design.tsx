import { RedeemDesignPage } from '../../features/redeem-design/redeem-design-page';

export function Component() {
  return <RedeemDesignPage />;
}
