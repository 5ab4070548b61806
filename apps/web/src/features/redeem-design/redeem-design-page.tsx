import { useRef, type ReactNode, type RefObject } from 'react';
import { useSearchParams } from 'react-router';
import type { DesignView } from '@guquan/contract/design';
import { publicIdSchema } from '@guquan/contract/share';
import { imageSrcSet, imageUrl } from '@guquan/contract/share-paths';
import buttons from '../../components/button.module.css';
import { ConfirmDialog } from '../../components/confirm-dialog/confirm-dialog';
import { PageColumn } from '../../components/page-column/page-column';
import { StatusView } from '../../components/status-view/status-view';
import { useRedeemTexts, type RedeemTexts } from './redeem-texts';
import { useRedeemDesign, type RedeemDesign } from './use-redeem-design';
import styles from './redeem-design-page.module.css';

/** `?designId=`: one well-formed public id, or nothing. */
function designIdOf(params: URLSearchParams): string | undefined {
  const parsed = publicIdSchema.safeParse(params.get('designId'));
  return parsed.success ? parsed.data : undefined;
}

/** The frame of the page while nothing user-specific is known: the design's shape, in grey. */
function Skeleton({ label }: { label: string }) {
  return (
    <div className={styles.page} role="status" aria-label={label} aria-busy="true">
      <div className={`${styles.preview} ${styles.shimmer}`} />
      <div className={`${styles.skeletonLine} ${styles.shimmer}`} />
      <div className={`${styles.skeletonLine} ${styles.short} ${styles.shimmer}`} />
      <div className={styles.skeletonFacts}>
        <div className={`${styles.skeletonFact} ${styles.shimmer}`} />
        <div className={`${styles.skeletonFact} ${styles.shimmer}`} />
      </div>
      <div className={`${styles.skeletonButton} ${styles.shimmer}`} />
    </div>
  );
}

function ActionButton({
  children,
  onClick,
  disabled = false,
}: {
  children: ReactNode;
  onClick: () => void;
  disabled?: boolean;
}) {
  return (
    <button type="button" className={buttons.primary} onClick={onClick} disabled={disabled}>
      {children}
    </button>
  );
}

/** What the user can do with the design, or why not. */
function RedeemPanel({
  view,
  state,
  text,
  redeemButton,
}: {
  view: DesignView;
  state: RedeemDesign;
  text: RedeemTexts;
  redeemButton: RefObject<HTMLButtonElement | null>;
}) {
  const { design, viewer } = view;
  const openButton = <ActionButton onClick={state.openInApp}>{text.openInApp}</ActionButton>;
  const openFailed = state.openFailed ? (
    <p className={styles.problem} role="alert">
      {text.openFailed}
    </p>
  ) : null;

  if (state.redeem.kind === 'done') {
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.redeemedHeading}</h2>
        <p className={styles.panelBody}>{text.redeemedBody(state.redeem.result.balanceAfter)}</p>
        {openButton}
        {openFailed}
      </div>
    );
  }
  if (viewer.redemption) {
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.alreadyHeading}</h2>
        <p className={styles.panelBody}>{text.alreadyBody}</p>
        {openButton}
        {openFailed}
      </div>
    );
  }
  if (!design.available) {
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.unavailableHeading}</h2>
        <p className={styles.panelBody}>{text.unavailableBody}</p>
      </div>
    );
  }
  if (viewer.balance < design.pricePoints) {
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.insufficientHeading}</h2>
        <p className={styles.panelBody}>
          {text.insufficientBody(design.pricePoints - viewer.balance)}
        </p>
      </div>
    );
  }

  const submitting = state.redeem.kind === 'submitting';
  const retryable = state.redeem.kind === 'retryable' ? state.redeem : undefined;
  return (
    <div className={styles.panel}>
      {retryable ? (
        <p className={styles.problem} role="alert">
          {retryable.reason === 'failed' ? text.redeemFailed : text.tooManyRequests}
        </p>
      ) : null}
      <button
        ref={redeemButton}
        type="button"
        className={buttons.primary}
        disabled={submitting}
        aria-busy={submitting}
        onClick={retryable ? state.confirmRedeem : state.askToRedeem}
      >
        {submitting ? text.redeeming : retryable ? text.retry : text.redeem}
      </button>
    </div>
  );
}

function DesignDetails({ view, text }: { view: DesignView; text: RedeemTexts }) {
  const { design, viewer } = view;
  return (
    <>
      <figure className={styles.preview}>
        {design.preview ? (
          <img
            className={styles.previewImage}
            src={imageUrl(design.preview.id, 640)}
            srcSet={imageSrcSet(design.preview)}
            sizes="(min-width: 768px) 380px, 90vw"
            width={design.preview.width}
            height={design.preview.height}
            alt={`${text.previewLabel}：${design.title}`}
          />
        ) : (
          <p className={styles.noPreview}>{text.noPreview}</p>
        )}
      </figure>
      <h1 className={styles.title}>{design.title}</h1>
      <p className={styles.designer}>
        <span className={styles.label}>{text.designer}</span> {design.designer.nickname}
      </p>
      <dl className={styles.facts}>
        <div className={styles.fact}>
          <dt className={styles.label}>{text.price}</dt>
          <dd className={styles.value}>{text.points(design.pricePoints)}</dd>
        </div>
        <div className={styles.fact}>
          <dt className={styles.label}>{text.yourPoints}</dt>
          <dd className={styles.value}>{text.points(viewer.balance)}</dd>
        </div>
      </dl>
    </>
  );
}

/** 兑换设计图: `?designId=` (PRODUCT.md "Redeem a design drawing"). */
export function RedeemDesignPage() {
  const [params] = useSearchParams();
  const designId = designIdOf(params);
  const state = useRedeemDesign(designId);
  const text = useRedeemTexts();
  const redeemButton = useRef<HTMLButtonElement>(null);
  const { page } = state;

  const status = (heading: string, body: string, action?: ReactNode) => (
    <PageColumn>
      <StatusView emblem="谷" heading={heading} body={body} action={action} />
    </PageColumn>
  );

  switch (page.kind) {
    case 'loading':
      return (
        <PageColumn>
          <Skeleton label={text.loading} />
        </PageColumn>
      );
    case 'invalid_id':
      return status(text.invalidHeading, text.invalidBody);
    case 'no_app':
      return status(text.noAppHeading, text.noAppBody);
    case 'not_found':
      return status(text.notFoundHeading, text.notFoundBody);
    case 'logged_out':
      return status(
        text.loggedOutHeading,
        text.loggedOutBody,
        <ActionButton onClick={state.logIn}>{text.logIn}</ActionButton>,
      );
    case 'failed':
      return status(
        text.failedHeading,
        text.failedBody,
        <ActionButton onClick={state.retryLoad}>{text.retry}</ActionButton>,
      );
    case 'ready': {
      const { view } = page;
      const confirming = state.redeem.kind === 'confirming';
      return (
        <PageColumn>
          <article className={styles.page}>
            <DesignDetails view={view} text={text} />
            <section aria-live="polite">
              <RedeemPanel view={view} state={state} text={text} redeemButton={redeemButton} />
            </section>
          </article>
          {confirming ? (
            <ConfirmDialog
              title={text.confirmTitle}
              body={text.confirmBody(
                view.design.title,
                view.design.pricePoints,
                view.viewer.balance - view.design.pricePoints,
              )}
              confirmLabel={text.confirm}
              cancelLabel={text.cancel}
              onConfirm={state.confirmRedeem}
              onCancel={state.cancelRedeem}
              returnFocus={redeemButton}
            />
          ) : null}
        </PageColumn>
      );
    }
  }
}
