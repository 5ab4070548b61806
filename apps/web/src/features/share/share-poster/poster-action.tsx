import {
  lazy,
  Suspense,
  useEffect,
  useRef,
  useState,
  type ComponentProps,
  type ReactNode,
} from 'react';
import type { ShareKind } from '@guquan/contract/share-paths';
import { reportShareEvent } from '../../../lib/funnel/report-share-event';
import { useShareTexts } from '../share-texts';
import buttons from '../../../components/button.module.css';
import styles from './poster-action.module.css';

/** The dialog's chunk: fetched on the first tap (or a little before, on the press). */
function loadPosterDialog() {
  return import('./poster-dialog');
}

/** Where the chunk cannot be had (offline, a new deployment): the tap does nothing, and says so nowhere. */
function PosterUnavailable({ onClose }: PosterDialogProps) {
  useEffect(onClose, [onClose]);
  return null;
}

type PosterDialogProps = ComponentProps<
  Awaited<ReturnType<typeof loadPosterDialog>>['PosterDialog']
>;

const PosterDialog = lazy(() =>
  loadPosterDialog().then(
    (module): { default: (props: PosterDialogProps) => ReactNode } => ({
      default: module.PosterDialog,
    }),
    () => ({ default: PosterUnavailable }),
  ),
);

/**
 * 分享海报: opens the item's share poster (counted in the share funnel as `poster_opened`). Only
 * this button is in the page's start-up code; the dialog, its texts and the poster's schema load
 * when it is first tapped.
 */
export function PosterAction({ kind, id }: { kind: ShareKind; id: string }) {
  const text = useShareTexts();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  return (
    <div className={styles.row}>
      <button
        ref={button}
        type="button"
        className={buttons.secondary}
        aria-haspopup="dialog"
        onPointerDown={() => {
          void loadPosterDialog().catch(() => undefined);
        }}
        onClick={() => {
          // A step of the share funnel (docs/decisions/0018-share-funnel-and-operators-listener.md).
          reportShareEvent('poster_opened', kind, id);
          setOpen(true);
        }}
      >
        {text.poster}
      </button>
      {open ? (
        <Suspense fallback={null}>
          <PosterDialog
            kind={kind}
            id={id}
            returnFocus={button}
            onClose={() => {
              setOpen(false);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
