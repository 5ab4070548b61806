import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { APP_MISSING_PARAM, IMAGE_PARAM } from '@guquan/contract/app-link-paths';
import type { ClientInfo } from '@guquan/contract/client-info';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { LabelledDialog } from '../../../components/modal-dialog/labelled-dialog';
import buttons from '../../../components/button.module.css';
import { useClientInfo } from '../../../lib/client/client-info-context';
import { useLanguage } from '../../../lib/i18n/language-context';
import { schemeLink, type AppTarget, type Destination } from '../open-in-app/app-link';
import { storeDestination } from '../open-in-app/launch-plan';
import { keepLanguage } from '../page/share-links';
import { androidStoreChoices } from './android-stores';
import { missingAppTexts, type MissingAppTexts } from './missing-app-texts';
import styles from './missing-app-layer.module.css';
import { takeReturnSpot } from './take-return-spot';

export interface MissingAppLayerProps {
  /**
   * The sheet, while it is open: about this target, and, when the link domain just sent the
   * visitor back, first putting them where they were (take-return-spot.ts).
   */
  sheet: { target: AppTarget; returned: boolean } | null;
  /** The toast before a store opens: whether the share code reached the clipboard. */
  toast: { copied: boolean } | null;
  /** The page's item is on screen: the sheet says it will be in the app after the install. */
  promise: boolean;
  /** A tap on a store (called within the tap: the share text is copied from it). */
  onStore: (destination: Destination | 'guide', target: AppTarget) => void;
  onClose: () => void;
}

/**
 * What a share page shows when the app is missing (loaded on demand, never at start-up): the
 * bottom sheet (no app found; get it; the item will be there after the install; one tap to the
 * store) and the toast that says the share code was copied before the store opens.
 */
export function MissingAppLayer({ sheet, toast, ...props }: MissingAppLayerProps) {
  const language = useLanguage();
  const client = useClientInfo();
  const text = missingAppTexts(language);
  return (
    <>
      {sheet ? (
        <MissingAppSheet
          {...props}
          target={sheet.target}
          returned={sheet.returned}
          text={text}
          language={language}
          client={client}
        />
      ) : null}
      {toast ? (
        <p className={styles.toast} role="status">
          {toast.copied ? text.toastCopied : text.toastNotCopied}
        </p>
      ) : null}
    </>
  );
}

type SheetProps = Omit<MissingAppLayerProps, 'sheet' | 'toast'> & {
  target: AppTarget;
  returned: boolean;
  text: MissingAppTexts;
  language: Language;
  client: ClientInfo;
};

/**
 * Back where "open" left the visitor: the scroll position, and the image of a gallery. And the
 * link domain's `app=missing` out of the address (every other parameter and the hash kept): the
 * sheet has been shown, so a reload, or the way back from a store, does not show it again. The
 * page still knows the app is missing (app-prompt.tsx keeps it for the item).
 */
function useReturnSpot(target: AppTarget, returned: boolean) {
  const navigate = useNavigate();
  const { pathname, search, hash } = useLocation();
  const done = useRef(false);
  useLayoutEffect(() => {
    if (!returned || done.current) return;
    done.current = true;
    const spot = target ? takeReturnSpot(target.kind, target.id) : undefined;
    const query = new URLSearchParams(search);
    query.delete(APP_MISSING_PARAM);
    if (spot?.image !== undefined && !query.has(IMAGE_PARAM)) {
      query.set(IMAGE_PARAM, String(spot.image));
      void navigate(
        { pathname, search: `?${query.toString()}`, hash },
        { replace: true, preventScrollReset: true },
      );
    } else {
      // Only the address: a navigation of the router would scroll the page to the top.
      const rest = query.toString();
      window.history.replaceState(
        window.history.state,
        '',
        `${BASE_PATH}${pathname}${rest ? `?${rest}` : ''}${hash}`,
      );
    }
    if (spot) window.scrollTo({ top: spot.scrollY, behavior: 'instant' });
  }, [returned, target, navigate, pathname, search, hash]);
}

/** Where "get the app" goes in this browser: its one store, or on Android the stores of the phone. */
function storeLinks(
  client: ClientInfo,
  text: MissingAppTexts,
  language: Language,
): { key: string; label: string; store: Destination | 'guide' }[] {
  const store = storeDestination(client);
  if (store !== 'guide' && store.type === 'url' && client.platform === 'android')
    return androidStoreChoices(navigator.userAgent, language).map((choice) => ({
      key: choice.id,
      label: choice.id === 'apk' ? choice.name : text.getAndroid.replace('{store}', choice.name),
      store: { type: 'url', href: choice.href },
    }));
  const label =
    store !== 'guide' && store.type === 'route'
      ? text.getOther
      : client.platform === 'ios'
        ? text.getIos
        : text.getOther;
  return [{ key: 'store', label, store }];
}

function MissingAppSheet(props: SheetProps) {
  const { target, returned, promise, onStore, onClose, text, language, client } = props;
  const first = useRef<HTMLAnchorElement>(null);
  const { search } = useLocation();
  useReturnSpot(target, returned);
  const kind = target?.kind ?? null;
  const links = storeLinks(client, text, language);
  // Only an item on screen is promised after the install: not a removed, private or missing one.
  const body = promise && kind ? text.promise.replace('{item}', text.item[kind]) : text.noPromise;
  return (
    <LabelledDialog
      title={text.title}
      titleClassName={styles.title}
      onClose={onClose}
      initialFocus={first}
      className={styles.backdrop}
    >
      {({ heading, descriptionId }) => (
        <div className={styles.sheet}>
          {heading}
          <p id={descriptionId} className={styles.body}>
            {body}
          </p>
          <ul className={styles.stores} aria-label={text.storesLabel}>
            {links.map((link, index) => (
              <li key={link.key}>
                <a
                  ref={index === 0 ? first : undefined}
                  href={
                    link.store === 'guide'
                      ? '#'
                      : link.store.type === 'url'
                        ? link.store.href
                        : `${BASE_PATH}${keepLanguage(link.store.to, search)}`
                  }
                  className={`${index === 0 ? buttons.primary : buttons.secondary} ${styles.store}`}
                  onClick={(event) => {
                    event.preventDefault();
                    onStore(link.store, target);
                  }}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
          <p className={styles.note}>{text.copyNote}</p>
          {kind ? (
            <a href={schemeLink(target)} className={styles.installed}>
              {text.alreadyInstalled}
            </a>
          ) : null}
          <button type="button" className={styles.close} onClick={onClose}>
            {text.close}
          </button>
        </div>
      )}
    </LabelledDialog>
  );
}
