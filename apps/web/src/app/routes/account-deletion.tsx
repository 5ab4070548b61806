import { useMatches } from 'react-router';
import { AccountDeletionPage } from '../../features/account-deletion/account-deletion-page';
import { useLanguage } from '../../lib/i18n/language-context';
import { titleForMatches } from '../../lib/routing/document-title';

export function Component() {
  return <AccountDeletionPage title={titleForMatches(useMatches(), useLanguage())} />;
}
