import { Link, useMatches } from 'react-router';
import { titleForMatches } from '../../lib/routing/document-title';
import { useLanguage } from '../../lib/i18n/language-context';
import { useMessages } from '../../lib/i18n/messages';
import { PageColumn } from '../page-column/page-column';
import { StatusView } from '../status-view/status-view';
import buttons from '../button.module.css';

/** Stands in for a page whose content a later issue brings: its title and one honest line. */
export function UnderConstruction() {
  const title = titleForMatches(useMatches(), useLanguage());
  const text = useMessages();
  return (
    <PageColumn>
      <StatusView
        emblem="谷"
        heading={title}
        body={text.underConstruction}
        action={
          <Link className={buttons.primary} to="/website">
            {text.toWebsite}
          </Link>
        }
      />
    </PageColumn>
  );
}
