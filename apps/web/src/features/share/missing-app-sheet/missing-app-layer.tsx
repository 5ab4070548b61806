import { useId, useRef, type MouseEvent } from 'react';
import type { ClientInfo } from '@guquan/contract/client-info';
import type { Language } from '@guquan/contract/language';
import type { ShareKind } from '@guquan/contract/share-paths';
import { ModalDialog } from '../../../components/modal-dialog/modal-dialog';
import buttons from '../../../components/button.module.css';
import { androidStoreChoices } from './android-stores';
import { missingAppTexts, type MissingAppTexts } from './missing-app-texts';
import styles from './missing-app-layer.module.css';

/** Where a tap in the sheet goes: a store's URL, the website's download section, or the guide. */
export type SheetStore = { type: 'url'; href: string } | { type: 'route'; href: string } | 'guide';

export interface MissingAppSheetProps {
  /** The kind of item the sheet is about; null without one (a malformed address). */
  kind: ShareKind | null;
  /** The item is on the page: the sheet says it will be in the app after the install. */
  promise: boolean;
  client: ClientInfo;
  userAgent: string;
  /** Where "get the app" goes in this browser (storeDestination): on Android, the stores list. */
  store: SheetStore;
  /** The custom scheme's link, for a visitor who has the app although the link did not open it. */
  schemeHref: string;
  /** A tap on a store (called within the tap: the share text is copied from it). */
  onStore: (store: SheetStore, event: MouseEvent<HTMLAnchorElement>) => void;
  onClose: () => void;
}

export interface MissingAppLayerProps {
  language: Language;
  /** The sheet, while it is open. */
  sheet: MissingAppSheetProps | null;
  /** The toast before a store opens: whether the share code reached the clipboard. */
  toast: { copied: boolean } | null;
}

/**
 * What a share page shows when the app is missing (loaded on demand, never at start-up): the
 * bottom sheet (no app found; get it; the item will be there after the install; one tap to the
 * store) and the toast that says the share code was copied before the store opens.
 */
export function MissingAppLayer({ language, sheet, toast }: MissingAppLayerProps) {
  const text = missingAppTexts(language);
  return (
    <>
      {sheet ? <MissingAppSheet {...sheet} text={text} language={language} /> : null}
      {toast ? (
        <p className={styles.toast} role="status">
          {toast.copied ? text.toastCopied : text.toastNotCopied}
        </p>
      ) : null}
    </>
  );
}

function storeLinks(
  props: MissingAppSheetProps,
  text: MissingAppTexts,
  language: Language,
): { key: string; label: string; store: SheetStore }[] {
  const { store, client, userAgent } = props;
  if (store !== 'guide' && store.type === 'url' && client.platform === 'android')
    return androidStoreChoices(userAgent, language).map((choice) => ({
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

function MissingAppSheet({
  text,
  language,
  ...props
}: MissingAppSheetProps & { text: MissingAppTexts; language: Language }) {
  const titleId = useId();
  const bodyId = useId();
  const first = useRef<HTMLAnchorElement>(null);
  const { kind, promise, schemeHref, onStore, onClose } = props;
  const links = storeLinks(props, text, language);
  const body = promise && kind ? text.promise.replace('{item}', text.item[kind]) : text.noPromise;
  return (
    <ModalDialog
      labelledBy={titleId}
      describedBy={bodyId}
      onClose={onClose}
      initialFocus={first}
      className={styles.backdrop}
    >
      <div className={styles.sheet}>
        <h2 id={titleId} className={styles.title}>
          {text.title}
        </h2>
        <p id={bodyId} className={styles.body}>
          {body}
        </p>
        <ul className={styles.stores} aria-label={text.storesLabel}>
          {links.map((link, index) => (
            <li key={link.key}>
              <a
                ref={index === 0 ? first : undefined}
                href={link.store === 'guide' ? '#' : link.store.href}
                className={`${index === 0 ? buttons.primary : buttons.secondary} ${styles.store}`}
                onClick={(event) => {
                  onStore(link.store, event);
                }}
              >
                {link.label}
              </a>
            </li>
          ))}
        </ul>
        <p className={styles.note}>{text.copyNote}</p>
        {kind ? (
          <a href={schemeHref} className={styles.installed}>
            {text.alreadyInstalled}
          </a>
        ) : null}
        <button type="button" className={styles.close} onClick={onClose}>
          {text.close}
        </button>
      </div>
    </ModalDialog>
  );
}
