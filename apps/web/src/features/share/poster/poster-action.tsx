import { useRef, useState } from 'react';
import type { ShareKind } from '@guquan/contract/share-paths';
import { onDemand } from '../../../lib/chunks/on-demand';
import { reportShareEventSoon } from '../../../lib/funnel/report-soon';
import { useShareTexts } from '../texts/share-texts';
import buttons from '../../../components/button.module.css';
import styles from './poster-action.module.css';
import type { PosterDialogProps } from './poster-dialog';

/**
 * The dialog's chunk: fetched on the first tap (or a little before, on the press). Where it cannot
 * be had (offline, a new deployment), the tap does nothing, and says so nowhere.
 */
const { Component: PosterDialog, preload: preloadPosterDialog } = onDemand<PosterDialogProps>(
  () => import('./poster-dialog').then((module) => module.PosterDialog),
  (props) => {
    props.onClose();
  },
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
          preloadPosterDialog();
        }}
        onClick={() => {
          // A step of the share funnel (docs/decisions/0018-share-funnel-and-operators-listener.md).
          reportShareEventSoon('poster_opened', kind, id);
          setOpen(true);
        }}
      >
        {text.poster}
      </button>
      {open ? (
        <PosterDialog
          kind={kind}
          id={id}
          returnFocus={button}
          onClose={() => {
            setOpen(false);
          }}
        />
      ) : null}
    </div>
  );
}
