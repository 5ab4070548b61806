import { useRef, useState } from 'react';
import type { Language } from '@guquan/contract/language';
import { Link } from 'react-router';
import type { StoreProduct } from '@guquan/contract/bridge';
import type { Membership, MembershipResponse, Plan } from '@guquan/contract/membership';
import { Card } from '../../components/card/card';
import buttons from '../../components/button.module.css';
import { formatDate } from '../../lib/format/dates';
import { formatFen, type MembershipTexts } from './membership-texts';
import type { MembershipFlow, PurchaseOutcome } from './purchase-flow';
import styles from './membership-page.module.css';

type Notice =
  | { kind: 'idle' }
  | { kind: 'busy'; text: string }
  | { kind: 'done' | 'warning' | 'error'; text: string };

function priceOf(plan: Plan, products: ReadonlyMap<string, StoreProduct>): string {
  const price = products.get(plan.productId)?.displayPrice;
  return price && price.trim() !== '' ? price : formatFen(plan.fallbackPriceFen);
}

function titleOf(plan: Plan, products: ReadonlyMap<string, StoreProduct>, language: Language) {
  return products.get(plan.productId)?.displayName || plan.titles[language];
}

function outcomeNotice(
  outcome: PurchaseOutcome,
  text: MembershipTexts,
  language: Language,
): Notice {
  switch (outcome.state) {
    case 'confirmed':
      return {
        kind: 'done',
        text: text.success(
          formatDate(outcome.membership.expiresAt ?? new Date().toISOString(), language),
        ),
      };
    case 'cancelled':
      return { kind: 'warning', text: text.cancelled };
    case 'pending':
      return { kind: 'warning', text: text.pending };
    case 'unconfirmed':
      return { kind: 'warning', text: text.unconfirmed };
    case 'rejected':
      return { kind: 'error', text: text.rejected(outcome.code) };
    case 'signed-out':
      return { kind: 'error', text: text.signedOut };
    case 'failed':
      return { kind: 'error', text: text.failed(outcome.message) };
  }
}

/** The plans, the consent, buying and restoring (iOS only). */
export function PurchasePanel({
  data,
  flow,
  products,
  text,
  language,
  onMembership,
}: {
  data: MembershipResponse;
  flow: MembershipFlow;
  products: ReadonlyMap<string, StoreProduct>;
  text: MembershipTexts;
  language: Language;
  onMembership: (membership: Membership) => void;
}) {
  const [selected, setSelected] = useState(data.plans[0]?.productId ?? '');
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState(false);
  const [notice, setNotice] = useState<Notice>({ kind: 'idle' });
  const consentBox = useRef<HTMLInputElement>(null);
  const plan = data.plans.find((candidate) => candidate.productId === selected);
  const busy = notice.kind === 'busy';

  const buy = async () => {
    if (!plan || busy) return;
    if (!consent) {
      setConsentError(true);
      consentBox.current?.focus();
      return;
    }
    setNotice({ kind: 'busy', text: text.purchasing });
    const outcome = await flow.purchase(plan.productId, data.appAccountToken, () => {
      setNotice({ kind: 'busy', text: text.verifying });
    });
    if (outcome.state === 'confirmed') onMembership(outcome.membership);
    setNotice(outcomeNotice(outcome, text, language));
  };

  const restore = async () => {
    if (busy) return;
    setNotice({ kind: 'busy', text: text.restoring });
    const outcome = await flow.restore();
    switch (outcome.state) {
      case 'restored':
        onMembership(outcome.membership);
        setNotice({ kind: 'done', text: text.restored(outcome.count) });
        break;
      case 'cancelled':
        setNotice({ kind: 'idle' });
        break;
      case 'unconfirmed':
        setNotice({ kind: 'error', text: text.restoreFailed(text.loadFailed) });
        break;
      case 'signed-out':
        setNotice({ kind: 'error', text: text.signedOut });
        break;
      case 'failed':
        setNotice({ kind: 'error', text: text.restoreFailed(outcome.message) });
        break;
    }
  };

  return (
    <Card aria-labelledby="vip-plans">
      <h2 id="vip-plans" className={styles.subheading}>
        {text.plansHeading}
      </h2>
      <fieldset className={styles.plans} disabled={busy} aria-labelledby="vip-plans">
        {data.plans.map((candidate) => {
          const price = priceOf(candidate, products);
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
                  setSelected(candidate.productId);
                }}
                className={styles.radio}
              />
              <span className={styles.planTitle}>{titleOf(candidate, products, language)}</span>
              <span className={styles.planPrice}>
                {price}
                <span className={styles.planPer}>{text.perPeriod[candidate.period]}</span>
              </span>
              <span className={styles.planTerms}>
                {text.periodName[candidate.period]} · {text.renewsEvery(candidate.period, price)}
              </span>
            </label>
          );
        })}
      </fieldset>
      <p className={styles.small}>{text.terms}</p>
      <div className={styles.consent}>
        <input
          ref={consentBox}
          id="vip-consent"
          type="checkbox"
          checked={consent}
          aria-invalid={consentError && !consent}
          aria-describedby={consentError && !consent ? 'vip-consent-error' : undefined}
          onChange={(event) => {
            setConsent(event.target.checked);
            setConsentError(false);
          }}
        />
        <label htmlFor="vip-consent" className={styles.small}>
          {text.consentBefore}{' '}
          <Link to="/agreement/vip/VipAgreement" className={styles.link}>
            {text.agreement}
          </Link>{' '}
          {text.and}{' '}
          <Link to="/agreement/yiSi/YiSiAgreement20261124" className={styles.link}>
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
        aria-disabled={busy}
        onClick={() => void buy()}
      >
        {plan
          ? text.buy(`${priceOf(plan, products)}${text.perPeriod[plan.period]}`)
          : text.plansHeading}
      </button>
      <button
        type="button"
        className={`${buttons.secondary} ${styles.wide}`}
        aria-disabled={busy}
        onClick={() => void restore()}
      >
        {text.restore}
      </button>
      <p className={styles.notice} data-kind={notice.kind} role="status" aria-live="polite">
        {notice.kind === 'idle' ? '' : notice.text}
      </p>
    </Card>
  );
}
