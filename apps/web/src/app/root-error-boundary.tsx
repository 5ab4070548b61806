import { isRouteErrorResponse, useRouteError } from 'react-router';
import { PageColumn } from '../components/page-column/page-column';
import { StatusView } from '../components/status-view/status-view';
import buttons from '../components/button.module.css';
import { useShellTexts } from '../lib/i18n/shell-texts';
import { useDocumentTitle } from '../lib/routing/document-title';
import { NotFoundView } from '../components/not-found-view/not-found-view';

/**
 * Every error of the app ends here: paths outside the base path (404) and pages whose code could
 * not be loaded even after the one automatic reload. Our own element also keeps React Router's
 * default one, whose inline styles the CSP blocks, from ever showing.
 */
export function RootErrorBoundary() {
  const error = useRouteError();
  const text = useShellTexts();
  useDocumentTitle();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundView />;
  return (
    <PageColumn>
      <StatusView
        heading={text.errorHeading}
        body={text.errorBody}
        action={
          <button
            type="button"
            className={buttons.primary}
            onClick={() => {
              window.location.reload();
            }}
          >
            {text.retry}
          </button>
        }
      />
    </PageColumn>
  );
}
