import { Link, useLocation } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { StatusView } from '../../../components/status-view/status-view';
import buttons from '../../../components/button.module.css';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { keepLanguage, WEBSITE_PATH } from '../share-links';
import { fill, useShareTexts, type ShareFailureState } from '../share-texts';
import styles from './share-failure-view.module.css';

/** The HTTP status, in small print after the words (for whoever reports the problem). */
const CODES: Readonly<Record<ShareFailureState, string | undefined>> = {
  not_found: '404',
  removed: '410',
  private: '403',
  invalid_id: '400',
  network: undefined,
};

/**
 * Why the share cannot be shown, in words, and what the visitor can still do: retry (after a
 * network failure), open or get the app, visit the official website. Never a dead end.
 */
export function ShareFailureView({
  kind,
  state,
  onRetry,
}: {
  kind: ShareKind;
  state: ShareFailureState;
  onRetry: () => void;
}) {
  const text = useShareTexts();
  const { openApp, getApp, appMissing } = useAppPrompt();
  const { search } = useLocation();
  const failure = text.failures[state];
  return (
    <div className={styles.failure} data-state={state}>
      <StatusView
        code={CODES[state]}
        heading={fill(failure.heading, { this: text.this[kind] })}
        body={failure.body}
        action={
          <div className={styles.actions}>
            {state === 'network' ? (
              <button type="button" className={buttons.primary} onClick={onRetry}>
                {text.retry}
              </button>
            ) : null}
            <button
              type="button"
              className={state === 'network' ? buttons.secondary : buttons.primary}
              onClick={appMissing ? getApp : openApp}
            >
              {appMissing ? text.getApp : text.openApp}
            </button>
            <Link className={styles.website} to={keepLanguage(WEBSITE_PATH, search)}>
              {text.toWebsite}
            </Link>
          </div>
        }
      />
    </div>
  );
}
