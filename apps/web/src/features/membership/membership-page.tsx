import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { StoreProduct } from '@guquan/contract/bridge';
import type { Membership, MembershipResponse, Plan } from '@guquan/contract/membership';
import { PageColumn } from '../../components/page-column/page-column';
import { connectBridge } from '../../lib/bridge/connect-bridge';
import type { Bridge } from '../../lib/bridge/native-bridge';
import { useLanguage } from '../../lib/i18n/language-context';
import { MembershipApiError, membershipApi } from './membership-api';
import { formatDate, formatFen, membershipTexts, type MembershipTexts } from './membership-texts';
import { createMembershipFlow, type MembershipFlow, type PurchaseOutcome } from './purchase-flow';
import styles from './membership-page.module.css';

/** Where the page is: nothing user-specific exists before the browser has the app's session. */
type Phase =
  | { name: 'connecting' }
  | { name: 'no-app'; platform: 'browser' | 'android' }
  | { name: 'signed-out'; bridge: Bridge }
  | { name: 'load-failed' }
  | {
      name: 'ready';
      platform: 'ios' | 'android';
      data: MembershipResponse;
      flow: MembershipFlow;
      products: ReadonlyMap<string, StoreProduct>;
    };

type Notice =
  | { kind: 'idle' }
  | { kind: 'busy'; text: string }
  | { kind: 'done' | 'warning' | 'error'; text: string };

function priceOf(plan: Plan, products: ReadonlyMap<string, StoreProduct>): string {
  const price = products.get(plan.productId)?.displayPrice;
  return price && price.trim() !== '' ? price : formatFen(plan.fallbackPriceFen);
}

function titleOf(
  plan: Plan,
  products: ReadonlyMap<string, StoreProduct>,
  language: 'zh-CN' | 'en',
) {
  return products.get(plan.productId)?.displayName || plan.titles[language];
}

function outcomeNotice(
  outcome: PurchaseOutcome,
  text: MembershipTexts,
  language: 'zh-CN' | 'en',
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

/**
 * The membership centre (PRODUCT.md "Membership centre (iOS)"). The server renders the skeleton
 * only; the browser gets the session from the app, then the status, the App Store's prices and
 * the purchases the app still holds unfinished.
 */
export function MembershipPage() {
  const language = useLanguage();
  const text = membershipTexts[language];
  const [phase, setPhase] = useState<Phase>({ name: 'connecting' });
  const [attempt, setAttempt] = useState(0);

  const setMembership = useCallback((membership: Membership) => {
    setPhase((current) =>
      current.name === 'ready' ? { ...current, data: { ...current.data, membership } } : current,
    );
  }, []);

  useEffect(() => {
    // Set when the page unmounts or starts over: late answers then change nothing.
    const life = { gone: false };
    const gone = () => life.gone;
    let unsubscribe: (() => void) | undefined;
    void (async () => {
      const bridge = await connectBridge();
      if (bridge.transport() === 'none') {
        setPhase({ name: 'no-app', platform: 'browser' });
        return;
      }
      let platform: 'ios' | 'android';
      try {
        platform = (await bridge.call('handshake', {})).platform;
      } catch {
        if (!gone()) setPhase({ name: 'no-app', platform: 'browser' });
        return;
      }
      const session = await bridge.call('getSession', {}).catch(() => null);
      if (gone()) return;
      if (!session) {
        setPhase(
          platform === 'ios'
            ? { name: 'signed-out', bridge }
            : { name: 'no-app', platform: 'android' },
        );
        return;
      }
      let data: MembershipResponse;
      try {
        data = await membershipApi.overview(session.token);
      } catch (error) {
        if (gone()) return;
        if (error instanceof MembershipApiError && error.kind === 'unauthorized') {
          setPhase({ name: 'signed-out', bridge });
        } else {
          setPhase({ name: 'load-failed' });
        }
        return;
      }
      const flow = createMembershipFlow(bridge, session.token);
      let products = new Map<string, StoreProduct>();
      if (platform === 'ios') {
        const known = await bridge
          .call('storeKitProducts', { productIds: data.plans.map((plan) => plan.productId) })
          .catch(() => ({ products: [] }));
        products = new Map(known.products.map((product) => [product.id, product]));
      }
      if (gone()) return;
      setPhase({ name: 'ready', platform, data, flow, products });
      if (platform !== 'ios') return;
      // A purchase that never reached the server (network, a closed page) is completed now.
      unsubscribe = bridge.on('transactionUpdated', ({ signedTransaction }) => {
        void flow.submit(signedTransaction).then((outcome) => {
          if (!gone() && outcome.state === 'confirmed') setMembership(outcome.membership);
        });
      });
      const synced = await flow.syncUnfinished();
      if (!gone() && synced) setMembership(synced);
    })();
    return () => {
      life.gone = true;
      unsubscribe?.();
    };
  }, [attempt, setMembership]);

  return (
    <PageColumn>
      <div className={styles.page}>
        <h1 className={styles.heading}>{text.heading}</h1>
        <PhaseView
          phase={phase}
          text={text}
          language={language}
          onRetry={() => {
            setPhase({ name: 'connecting' });
            setAttempt((n) => n + 1);
          }}
          onMembership={setMembership}
        />
        <Benefits text={text} />
        <section className={styles.card} aria-labelledby="vip-cancel">
          <h2 id="vip-cancel" className={styles.subheading}>
            {text.cancelHeading}
          </h2>
          <p className={styles.small}>{text.cancelSteps}</p>
        </section>
      </div>
    </PageColumn>
  );
}

function PhaseView({
  phase,
  text,
  language,
  onRetry,
  onMembership,
}: {
  phase: Phase;
  text: MembershipTexts;
  language: 'zh-CN' | 'en';
  onRetry: () => void;
  onMembership: (membership: Membership) => void;
}) {
  switch (phase.name) {
    case 'connecting':
      return (
        <section className={styles.status} aria-busy="true" aria-label={text.loading}>
          <p className={styles.skeletonLine} />
          <p className={styles.skeletonLineShort} />
          <p className={styles.visuallyHidden}>{text.loading}</p>
        </section>
      );
    case 'no-app':
      return (
        <section className={styles.status}>
          <p className={styles.statusTitle}>{text.onlyIos}</p>
          <p className={styles.small}>
            {phase.platform === 'android' ? text.onlyIosAndroid : text.onlyIosBrowser}
          </p>
        </section>
      );
    case 'signed-out':
      return (
        <section className={styles.status}>
          <p className={styles.statusTitle}>{text.logInNeeded}</p>
          <button
            type="button"
            className={styles.primary}
            onClick={() => {
              void phase.bridge.call('login', {}).then(
                (session) => {
                  if (session) onRetry();
                },
                () => undefined,
              );
            }}
          >
            {text.logIn}
          </button>
        </section>
      );
    case 'load-failed':
      return (
        <section className={styles.status}>
          <p className={styles.statusTitle} role="alert">
            {text.loadFailed}
          </p>
          <button type="button" className={styles.primary} onClick={onRetry}>
            {text.retry}
          </button>
        </section>
      );
    case 'ready':
      return (
        <>
          <StatusCard membership={phase.data.membership} text={text} language={language} />
          {phase.platform === 'ios' ? (
            <Purchase
              data={phase.data}
              flow={phase.flow}
              products={phase.products}
              text={text}
              language={language}
              onMembership={onMembership}
            />
          ) : (
            <section className={styles.status}>
              <p className={styles.statusTitle}>{text.onlyIos}</p>
              <p className={styles.small}>{text.onlyIosAndroid}</p>
            </section>
          )}
        </>
      );
  }
}

function StatusCard({
  membership,
  text,
  language,
}: {
  membership: Membership;
  text: MembershipTexts;
  language: 'zh-CN' | 'en';
}) {
  const date = membership.expiresAt ? formatDate(membership.expiresAt, language) : undefined;
  return (
    <section className={styles.status} data-status={membership.status} aria-label={text.heading}>
      <p className={styles.statusTitle}>
        {membership.status === 'active'
          ? text.statusActive
          : membership.status === 'expired'
            ? text.statusExpired
            : text.statusNone}
      </p>
      {date ? (
        <p className={styles.small}>
          {membership.status === 'active' ? text.expiresOn(date) : text.expiredOn(date)}
        </p>
      ) : null}
      {membership.status === 'active' && membership.autoRenew !== null ? (
        <p className={styles.small}>{membership.autoRenew ? text.renewOn : text.renewOff}</p>
      ) : null}
    </section>
  );
}

function Purchase({
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
  language: 'zh-CN' | 'en';
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
    <section className={styles.card} aria-labelledby="vip-plans">
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
          <Link to="/agreement/yiSi/YiSiAgreement20251015" className={styles.link}>
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
        className={styles.primary}
        aria-disabled={busy}
        onClick={() => void buy()}
      >
        {plan
          ? text.buy(`${priceOf(plan, products)}${text.perPeriod[plan.period]}`)
          : text.plansHeading}
      </button>
      <button
        type="button"
        className={styles.secondary}
        aria-disabled={busy}
        onClick={() => void restore()}
      >
        {text.restore}
      </button>
      <p className={styles.notice} data-kind={notice.kind} role="status" aria-live="polite">
        {notice.kind === 'idle' ? '' : notice.text}
      </p>
    </section>
  );
}

function Benefits({ text }: { text: MembershipTexts }) {
  return (
    <section className={styles.card} aria-labelledby="vip-benefits">
      <h2 id="vip-benefits" className={styles.subheading}>
        {text.benefitsHeading}
      </h2>
      <ul className={styles.benefits}>
        {text.benefits.map(([title, detail]) => (
          <li key={title} className={styles.benefit}>
            <span className={styles.benefitTitle}>{title}</span>
            <span className={styles.small}>{detail}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
