import { Link, useLocation } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { StatusView } from '../../../components/status-view/status-view';
import buttons from '../../../components/button.module.css';
import { useAppPrompt } from '../open-in-app/app-prompt';
import { keepLanguage, WEBSITE_PATH } from './share-links';
import { fill, useShareTexts } from '../texts/share-texts';
import type { ShareFailureState } from '../share-types';
import { useShareFailureTexts } from '../texts/share-failure-texts';
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
 * Why the share cannot be shown, in words with a picture, and what the visitor can still do:
 * retry (after a network failure), open or get the app, download it from the website, visit the
 * website; below it the page's shelf of goods (share-page.tsx). Never a dead end.
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
  const failureText = useShareFailureTexts();
  const { openApp, getApp, appMissing } = useAppPrompt();
  const { search } = useLocation();
  const code = CODES[state];
  return (
    <div className={styles.failure} data-state={state}>
      <span className={styles.icon} aria-hidden="true" />
      <StatusView
        code={code === undefined ? undefined : fill(failureText.code, { code })}
        heading={fill(failureText.heading[state], { this: text.this[kind] })}
        body={failureText.why[state]}
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
            {appMissing ? null : (
              <Link
                className={buttons.secondary}
                to={keepLanguage(`${WEBSITE_PATH}#download`, search)}
              >
                {failureText.download}
              </Link>
            )}
            <Link className={styles.website} to={keepLanguage(WEBSITE_PATH, search)}>
              {text.toWebsite}
            </Link>
          </div>
        }
      />
    </div>
  );
}
