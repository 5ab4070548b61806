import { MembershipPage } from '../../features/membership/membership-page';

export function Component() {
  return <MembershipPage />;
}
