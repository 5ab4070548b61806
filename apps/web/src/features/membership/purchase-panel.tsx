import { useRef, useState } from 'react';
import type { Language } from '@guquan/contract/language';
import { Link } from 'react-router';
import type { StoreProduct } from '@guquan/contract/bridge';
import type { Membership, MembershipResponse } from '@guquan/contract/membership';
import { Card } from '../../components/card/card';
import buttons from '../../components/button.module.css';
import { formatDate } from '../../lib/format/dates';
import { ActionFeedback, type Feedback } from './action-feedback';
import type { MembershipTexts } from './membership-texts';
import {
  forgetAwaitingApproval,
  readAwaitingApproval,
  startAwaitingApproval,
  type AwaitingApproval,
} from './awaiting-approval';
import { forgetPlanChoice, readPlanChoice, savePlanChoice } from './plan-choice';
import { pricePerPeriod, priceOf, titleOf } from './plan-labels';
import { planValues } from './plan-value';
import type { MembershipFlow } from './purchase-flow';
import { restoreFeedback, unconfirmedFeedback } from './purchase-feedback';
import { RestoreButton } from './restore-button';
import styles from './membership-page.module.css';

/** What the page hands either panel: the member's or the one that sells the plans. */
export interface MembershipPanelProps {
  data: MembershipResponse;
  flow: MembershipFlow;
  products: ReadonlyMap<string, StoreProduct>;
  text: MembershipTexts;
  language: Language;
  /** A confirmed purchase, restore or change: the new membership and what to announce. */
  onMembership: (membership: Membership, announcement?: string) => void;
}

/**
 * The plans, the consent and buying, for someone who is not a member (iOS only). The chosen plan
 * and the consent outlive a visit to the agreement and back. What a tap leads to is said right
 * below the button tapped.
 */
export function PurchasePanel({
  data,
  flow,
  products,
  text,
  language,
  onMembership,
}: MembershipPanelProps) {
  // Back from the agreement (the page was left and mounted again): the choice as it was. The
  // panel exists only in the browser (after the app's session), so storage can be read here.
  const [saved] = useState(() => {
    const choice = readPlanChoice();
    return choice && data.plans.some((candidate) => candidate.productId === choice.productId)
      ? choice
      : undefined;
  });
  const [selected, setSelected] = useState(saved?.productId ?? data.plans[0]?.productId ?? '');
  const [consent, setConsent] = useState(saved?.consent ?? false);
  const [consentError, setConsentError] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  // A purchase waiting for approval (this visit or an earlier one in this tab): no second one.
  const [awaiting, setAwaiting] = useState<AwaitingApproval | undefined>(() =>
    readAwaitingApproval(),
  );
  const consentBox = useRef<HTMLInputElement>(null);
  const plan = data.plans.find((candidate) => candidate.productId === selected);
  const values = planValues(data.plans, products, language);
  const awaitingPlan = awaiting
    ? data.plans.find((candidate) => candidate.productId === awaiting.productId)
    : undefined;
  const shown: Feedback | undefined =
    feedback ??
    (awaiting
      ? {
          kind: 'warning',
          text: text.awaitingApproval(
            awaitingPlan ? titleOf(awaitingPlan, language) : text.plansHeading,
          ),
        }
      : undefined);

  const choose = (productId: string, agreed: boolean) => {
    setSelected(productId);
    setConsent(agreed);
    savePlanChoice({ productId, consent: agreed });
  };

  const buy = async () => {
    if (!plan || busy || awaiting) return;
    if (!consent) {
      setConsentError(true);
      consentBox.current?.focus();
      return;
    }
    setBusy(true);
    setFeedback({ kind: 'busy', text: text.purchasing });
    const outcome = await flow.purchase(plan.productId, data.appAccountToken, () => {
      setFeedback({ kind: 'busy', text: text.verifying });
    });
    setBusy(false);
    if (outcome.state === 'confirmed') {
      forgetPlanChoice();
      forgetAwaitingApproval();
      onMembership(
        outcome.membership,
        text.success(
          formatDate(outcome.membership.expiresAt ?? new Date().toISOString(), language),
        ),
      );
      return;
    }
    if (outcome.state === 'pending') {
      setAwaiting(startAwaitingApproval(plan.productId));
      setFeedback(undefined);
      return;
    }
    setFeedback(unconfirmedFeedback(outcome, text));
  };

  return (
    <Card aria-labelledby="vip-plans">
      <h2 id="vip-plans" className={styles.subheading}>
        {text.plansHeading}
      </h2>
      <fieldset className={styles.plans} disabled={busy} aria-labelledby="vip-plans">
        {data.plans.map((candidate) => {
          const price = priceOf(candidate, products);
          const value = values.get(candidate.productId);
          return (
            <label
              key={candidate.productId}
              className={styles.plan}
              data-selected={candidate.productId === selected}
            >
              <input
                type="radio"
                name="plan"
                value={candidate.productId}
                checked={candidate.productId === selected}
                onChange={() => {
                  choose(candidate.productId, consent);
                }}
                className={styles.radio}
              />
              <span className={styles.planTitle}>
                {titleOf(candidate, language)}
                {value?.bestValue ? (
                  <span className={styles.bestValue}>{text.bestValue}</span>
                ) : null}
              </span>
              <span className={styles.planPrice}>
                {price}
                <span className={styles.planPer}>{text.perPeriod[candidate.period]}</span>
                {value?.perMonth ? (
                  <span className={styles.planPerMonth}>{text.perMonth(value.perMonth)}</span>
                ) : null}
              </span>
              <span className={styles.planTerms}>
                {text.periodName[candidate.period]} · {text.renewsEvery(candidate.period, price)}
              </span>
            </label>
          );
        })}
      </fieldset>
      <p className={styles.small}>{text.terms}</p>
      {/*
        The consent and the button stay in view at the foot of the screen while the plans are
        (issue 39: on a 390×844 phone the button sat below the fold, under the benefits, plans and
        terms); scrolled to the end, they rest here, after the terms, in reading order.
      */}
      <div className={styles.checkout}>
        <div className={styles.consent}>
          <input
            ref={consentBox}
            id="vip-consent"
            type="checkbox"
            checked={consent}
            aria-invalid={consentError && !consent}
            aria-describedby={consentError && !consent ? 'vip-consent-error' : undefined}
            onChange={(event) => {
              choose(selected, event.target.checked);
              setConsentError(false);
            }}
          />
          <label htmlFor="vip-consent" className={styles.small}>
            {text.consentBefore}{' '}
            <Link to="/agreement/vip/VipAgreement" className={styles.link}>
              {text.agreement}
            </Link>{' '}
            {text.and}{' '}
            <Link to="/agreement/yiSi/YiSiAgreement20261128" className={styles.link}>
              {text.privacy}
            </Link>
          </label>
        </div>
        {consentError && !consent ? (
          <p id="vip-consent-error" className={styles.error} role="alert">
            {text.consentNeeded}
          </p>
        ) : null}
        <button
          type="button"
          className={`${buttons.primary} ${styles.wide}`}
          aria-disabled={busy || awaiting !== undefined}
          aria-describedby={awaiting ? 'vip-buy-feedback' : undefined}
          onClick={() => void buy()}
        >
          {plan ? text.buy(pricePerPeriod(plan, products, text)) : text.plansHeading}
        </button>
        <ActionFeedback feedback={shown} id="vip-buy-feedback" />
      </div>
      <RestoreButton
        flow={flow}
        text={text}
        disabled={busy}
        onRestored={(membership, count) => {
          onMembership(
            membership,
            membership.status === 'active' ? text.restored(count) : undefined,
          );
        }}
        describe={restoreFeedback}
      />
    </Card>
  );
}
