import { AccountDeletionPage } from '../../features/account-deletion/account-deletion-page';

/** /APPPage/logOut: the account deletion page (its heading is its own; the title the spec's). */
export function Component() {
  return <AccountDeletionPage />;
}
