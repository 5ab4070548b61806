import buttons from '../../components/button.module.css';
import { PageColumn } from '../../components/page-column/page-column';
import { StatusView } from '../../components/status-view/status-view';
import { useLanguage } from '../../lib/i18n/language-context';
import { DeletionOverviewView } from './deletion-overview';
import { deletionTexts } from './deletion-texts';
import { useAccountDeletion } from './use-account-deletion';
import styles from './account-deletion-page.module.css';

/**
 * The account deletion page (PRODUCT.md "Delete account"). The server renders only its skeleton:
 * the user, their token and their data exist in the browser only, from the bridge and the API.
 */
export function AccountDeletionPage() {
  const language = useLanguage();
  const t = deletionTexts(language);
  const deletion = useAccountDeletion();
  const { phase } = deletion;

  let body;
  switch (phase.kind) {
    case 'loading':
      body = <Skeleton title={t.heading} label={t.loading} />;
      break;
    case 'no_app':
      body = <StatusView heading={t.noAppHeading} body={t.noAppBody} />;
      break;
    case 'logged_out':
      body = (
        <StatusView
          heading={t.loggedOutHeading}
          body={t.loggedOutBody}
          action={
            <button type="button" className={buttons.primary} onClick={deletion.logIn}>
              {t.login}
            </button>
          }
        />
      );
      break;
    case 'network':
    case 'app_silent':
      body = (
        <StatusView
          heading={phase.kind === 'network' ? t.networkHeading : t.appSilentHeading}
          body={phase.kind === 'network' ? t.networkBody : t.appSilentBody}
          action={
            <button type="button" className={buttons.primary} onClick={deletion.retry}>
              {t.retry}
            </button>
          }
        />
      );
      break;
    case 'ready':
      body = (
        <DeletionOverviewView
          t={t}
          language={language}
          overview={phase.overview}
          token={phase.token}
          deletion={deletion}
        />
      );
      break;
  }
  return <PageColumn>{body}</PageColumn>;
}

function Skeleton({ title, label }: { title: string; label: string }) {
  return (
    <div className={styles.page} aria-busy="true">
      <h1 className={styles.title}>{title}</h1>
      <p className="visually-hidden" role="status">
        {label}
      </p>
      {[0, 1, 2].map((index) => (
        <div key={index} className={styles.skeletonCard} />
      ))}
    </div>
  );
}
