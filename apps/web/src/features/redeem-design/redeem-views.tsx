import type { ReactNode, RefObject } from 'react';
import type { Design, DesignView } from '@guquan/contract/design';
import { imageSrcSet, imageUrl } from '@guquan/contract/share-paths';
import buttons from '../../components/button.module.css';
import type { RedeemTexts } from './redeem-texts';
import type { RedeemDesign } from './use-redeem-design';
import styles from './redeem-design-page.module.css';

export function ActionButton({
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
export function RedeemPanel({
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
  if (viewer.redemption?.state === 'pending') {
    // Asked, the platform's answer not in yet: said where the tap was (the panel is a live
    // region), updated by itself when it completes.
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.pendingHeading}</h2>
        <p className={styles.panelBody}>{text.pendingBody}</p>
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
  if (viewer.ownDesign) {
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.ownHeading}</h2>
        <p className={styles.panelBody}>{text.ownBody}</p>
        {openButton}
        {openFailed}
      </div>
    );
  }
  if (!design.available) {
    // Retired: no price, no redeeming; the way on is the app's other designs.
    return (
      <div className={styles.panel}>
        <h2 className={styles.panelHeading}>{text.unavailableHeading}</h2>
        <p className={styles.panelBody}>{text.unavailableBody}</p>
        <ActionButton onClick={state.openDesigns}>{text.otherDesigns}</ActionButton>
        {openFailed}
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
        <button type="button" className={buttons.secondary} onClick={state.openEarnPoints}>
          {text.earnPoints}
        </button>
        {openFailed}
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

/**
 * The design: its preview, title, designer and price; with the user's standing (`viewer`) once
 * logged in, without it before (what would be redeemed, issue 39).
 */
export function DesignDetails({
  design,
  viewer,
  text,
}: {
  design: Design;
  viewer?: DesignView['viewer'];
  text: RedeemTexts;
}) {
  return (
    <>
      <figure className={styles.preview}>
        {design.preview?.missing ? (
          // Still coming from the platform: the placeholder at the preview's shape.
          <svg
            className={`${styles.previewImage} ${styles.previewPending}`}
            viewBox={`0 0 ${design.preview.width} ${design.preview.height}`}
            width={design.preview.width}
            height={design.preview.height}
            role="img"
            aria-label={`${text.previewLabel}：${design.title}`}
          />
        ) : design.preview ? (
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
      {design.available ? (
        // A retired design has no price any more: nothing to compare the points with.
        <dl className={styles.facts}>
          <div className={styles.fact}>
            <dt className={styles.label}>{text.price}</dt>
            <dd className={styles.value}>{text.points(design.pricePoints)}</dd>
          </div>
          {viewer ? (
            <div className={styles.fact}>
              <dt className={styles.label}>{text.yourPoints}</dt>
              <dd className={styles.value}>{text.points(viewer.balance)}</dd>
            </div>
          ) : null}
        </dl>
      ) : null}
      {design.available && !viewer?.ownDesign && !viewer?.redemption ? (
        <section className={styles.gets} aria-labelledby="design-gets">
          <h2 id="design-gets" className={styles.getsHeading}>
            {text.getsHeading}
          </h2>
          <ul className={styles.getsList}>
            <li>{text.getsFile(design.file)}</li>
            <li>{text.getsUse(design.use)}</li>
          </ul>
        </section>
      ) : null}
    </>
  );
}
