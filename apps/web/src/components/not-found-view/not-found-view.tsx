import { Link } from 'react-router';
import { useShellTexts } from '../../lib/i18n/shell-texts';
import { PageColumn } from '../page-column/page-column';
import { PageFooter } from '../page-footer/page-footer';
import { StatusView } from '../status-view/status-view';
import buttons from '../button.module.css';

export function NotFoundView() {
  const text = useShellTexts();
  return (
    <PageColumn>
      <StatusView
        code="404"
        heading={text.notFoundHeading}
        body={text.notFoundBody}
        action={
          <Link className={buttons.primary} to="/website">
            {text.toWebsite}
          </Link>
        }
      />
      <PageFooter />
    </PageColumn>
  );
}
