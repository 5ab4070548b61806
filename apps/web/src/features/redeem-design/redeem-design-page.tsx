import { useRef, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { publicIdSchema } from '@guquan/contract/share';
import { ConfirmDialog } from '../../components/confirm-dialog/confirm-dialog';
import { PageColumn } from '../../components/page-column/page-column';
import { StatusView } from '../../components/status-view/status-view';
import { useRedeemTexts } from './redeem-texts';
import { ActionButton, DesignDetails, RedeemPanel } from './redeem-views';
import { useRedeemDesign } from './use-redeem-design';
import shimmer from '../../components/shimmer.module.css';
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
      <div className={`${styles.preview} ${shimmer.shimmer}`} />
      <div className={`${styles.skeletonLine} ${shimmer.shimmer}`} />
      <div className={`${styles.skeletonLine} ${styles.short} ${shimmer.shimmer}`} />
      <div className={styles.skeletonFacts}>
        <div className={`${styles.skeletonFact} ${shimmer.shimmer}`} />
        <div className={`${styles.skeletonFact} ${shimmer.shimmer}`} />
      </div>
      <div className={`${styles.skeletonButton} ${shimmer.shimmer}`} />
    </div>
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
      <StatusView heading={heading} body={body} action={action} />
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
      return status(
        text.notFoundHeading,
        text.notFoundBody,
        <ActionButton onClick={state.openDesigns}>{text.otherDesigns}</ActionButton>,
      );
    case 'logged_out':
      // What would be redeemed first, once read; the log-in as the next step.
      return page.design ? (
        <PageColumn>
          <article className={styles.page}>
            <DesignDetails design={page.design} text={text} />
            <section className={styles.panel} aria-labelledby="redeem-log-in">
              <h2 id="redeem-log-in" className={styles.panelHeading}>
                {text.loggedOutHeading}
              </h2>
              <p className={styles.panelBody}>{text.loggedOutBody}</p>
              <ActionButton onClick={state.logIn}>{text.logIn}</ActionButton>
            </section>
          </article>
        </PageColumn>
      ) : (
        status(
          text.loggedOutHeading,
          text.loggedOutBody,
          <ActionButton onClick={state.logIn}>{text.logIn}</ActionButton>,
        )
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
            <DesignDetails design={view.design} viewer={view.viewer} text={text} />
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
