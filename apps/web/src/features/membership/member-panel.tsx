import { useEffect, useRef, useState } from 'react';
import { planChange, type Plan } from '@guquan/contract/membership';
import { Card } from '../../components/card/card';
import buttons from '../../components/button.module.css';
import { formatDate } from '../../lib/format/dates';
import { ActionFeedback, type Feedback } from './action-feedback';
import { pricePerPeriod, titleOf } from './plan-labels';
import type { MembershipPanelProps } from './purchase-panel';
import { restoreFeedback, unconfirmedFeedback } from './purchase-feedback';
import { RestoreButton } from './restore-button';
import styles from './membership-page.module.css';

/**
 * An active member's view: the plan, when it renews (or ends), a change waiting for the renewal,
 * the App Store's own subscription management (change or cancel, as Apple expects), and the other
 * plans as changes of the one subscription, each saying when it would start. Never a purchase
 * form: a second subscription would not add a day.
 */
export function MemberPanel({
  data,
  flow,
  products,
  text,
  language,
  announcement,
  onMembership,
}: MembershipPanelProps & {
  /** News of the membership itself (bought, approved, changed at once), said at the top. */
  announcement: string | undefined;
}) {
  const { membership, plans } = data;
  const current = plans.find((plan) => plan.productId === membership.productId);
  const renewsTo = plans.find((plan) => plan.productId === membership.renewalProductId);
  const date = formatDate(membership.expiresAt ?? new Date().toISOString(), language);
  const pendingChange =
    renewsTo &&
    current &&
    renewsTo.productId !== current.productId &&
    membership.autoRenew !== false
      ? renewsTo
      : undefined;
  const [feedback, setFeedback] = useState<{ at: string; feedback: Feedback } | undefined>();
  const busy = feedback?.feedback.kind === 'busy';
  const news = useRef<HTMLParagraphElement>(null);

  // The button that was tapped may be gone (the member's plan changed): the news takes focus.
  useEffect(() => {
    if (announcement) news.current?.focus();
  }, [announcement]);

  const say = (at: string, next: Feedback | undefined) => {
    setFeedback(next ? { at, feedback: next } : undefined);
  };

  const manage = async () => {
    if (busy) return;
    say('manage', { kind: 'busy', text: text.managing });
    const outcome = await flow.manage();
    if (outcome.state === 'failed') {
      say('manage', { kind: 'error', text: text.manageFailed });
      return;
    }
    say('manage', undefined);
    if (outcome.membership) onMembership(outcome.membership);
  };

  const change = async (target: Plan) => {
    if (busy || !current) return;
    const at = target.productId;
    say(at, { kind: 'busy', text: text.changing });
    const outcome = await flow.purchase(target.productId, data.appAccountToken, () => {
      say(at, { kind: 'busy', text: text.verifying });
    });
    if (outcome.state !== 'confirmed') {
      say(at, unconfirmedFeedback(outcome, text));
      return;
    }
    const next = outcome.membership;
    const nextDate = formatDate(next.expiresAt ?? new Date().toISOString(), language);
    if (target.productId === current.productId) {
      say(at, undefined);
      onMembership(next, text.changeKept);
    } else if (next.productId === target.productId) {
      say(at, undefined);
      onMembership(next, text.changedNow(titleOf(target, language), nextDate));
    } else {
      onMembership(next);
      say(at, { kind: 'done', text: text.changeScheduled(titleOf(target, language), nextDate) });
    }
  };

  const effectOf = (target: Plan): string => {
    if (!current) return '';
    if (target.productId === current.productId) return text.effect.keep;
    const { kind, startsAt } = planChange(current, target);
    if (kind === 'upgrade') return text.effect.upgrade;
    if (kind === 'downgrade') return text.effect.downgrade(date);
    return startsAt === 'now' ? text.effect.crossgradeNow : text.effect.crossgradeRenewal(date);
  };

  // Every other plan; while a change waits for the renewal, the current plan too (to keep it).
  const choices = plans.filter(
    (plan) => plan.productId !== current?.productId || pendingChange !== undefined,
  );

  return (
    <>
      <Card className={styles.status} data-status="active" aria-labelledby="vip-member">
        <h2 id="vip-member" className={styles.subheading}>
          {text.memberHeading}
        </h2>
        {announcement ? (
          <p ref={news} tabIndex={-1} className={styles.notice} data-kind="done" role="status">
            {announcement}
          </p>
        ) : null}
        <p className={styles.statusTitle}>{text.statusActive}</p>
        {current ? (
          <p className={styles.planLine}>
            {text.currentPlan(titleOf(current, language), pricePerPeriod(current, products, text))}
          </p>
        ) : null}
        <p className={styles.small}>
          {membership.autoRenew === false ? text.endsOn(date) : text.renewsOn(date)}
        </p>
        {pendingChange ? (
          <p className={styles.small}>{text.changesOn(date, titleOf(pendingChange, language))}</p>
        ) : null}
        <button
          type="button"
          className={`${buttons.primary} ${styles.wide}`}
          aria-disabled={busy}
          onClick={() => void manage()}
        >
          {text.manage}
        </button>
        <ActionFeedback feedback={feedback?.at === 'manage' ? feedback.feedback : undefined} />
        <p className={styles.small}>{text.manageHint}</p>
      </Card>
      {current && choices.length > 0 ? (
        <Card aria-labelledby="vip-change">
          <h2 id="vip-change" className={styles.subheading}>
            {text.changeHeading}
          </h2>
          <p className={styles.small}>{text.changeIntro}</p>
          <ul className={styles.changes}>
            {choices.map((plan) => {
              const scheduled = plan.productId === pendingChange?.productId;
              return (
                <li key={plan.productId} className={styles.change}>
                  {scheduled ? (
                    <p className={styles.planLine}>
                      {text.changesOn(date, titleOf(plan, language))}
                    </p>
                  ) : (
                    <>
                      <button
                        type="button"
                        className={`${buttons.secondary} ${styles.wide}`}
                        aria-disabled={busy}
                        aria-describedby={`vip-effect-${plan.productId}`}
                        onClick={() => void change(plan)}
                      >
                        {plan.productId === current.productId
                          ? text.keepCurrent(titleOf(plan, language))
                          : text.changeTo(
                              titleOf(plan, language),
                              pricePerPeriod(plan, products, text),
                            )}
                      </button>
                      <p id={`vip-effect-${plan.productId}`} className={styles.small}>
                        {effectOf(plan)}
                      </p>
                    </>
                  )}
                  <ActionFeedback
                    feedback={feedback?.at === plan.productId ? feedback.feedback : undefined}
                  />
                </li>
              );
            })}
          </ul>
          <RestoreButton
            flow={flow}
            text={text}
            disabled={busy}
            onRestored={(restored) => {
              onMembership(restored);
            }}
            describe={restoreFeedback}
          />
        </Card>
      ) : null}
    </>
  );
}
