import type { Language } from '@guquan/contract/language';
import { Card } from '../../components/card/card';
import buttons from '../../components/button.module.css';
import { PageColumn } from '../../components/page-column/page-column';
import { useLanguage } from '../../lib/i18n/language-context';
import { MemberPanel } from './member-panel';
import { MembershipStatus } from './membership-status';
import { membershipTexts, type MembershipTexts } from './membership-texts';
import { PurchasePanel } from './purchase-panel';
import { useMembership, type MembershipCentre, type MembershipPhase } from './use-membership';
import styles from './membership-page.module.css';

/**
 * The membership centre (PRODUCT.md "Membership centre (iOS)"). The server renders the skeleton
 * only; the browser gets the session from the app, then the status, the App Store's prices and
 * the purchases the app still holds unfinished.
 */
export function MembershipPage() {
  const language = useLanguage();
  const text = membershipTexts(language);
  const centre = useMembership();

  return (
    <PageColumn>
      <div className={styles.page}>
        <h1 className={styles.heading}>{text.heading}</h1>
        <PhaseView phase={centre.phase} text={text} language={language} centre={centre} />
        {sellsPlans(centre.phase) ? null : <Benefits text={text} />}
        <Card aria-labelledby="vip-cancel">
          <h2 id="vip-cancel" className={styles.subheading}>
            {text.cancelHeading}
          </h2>
          <p className={styles.small}>{text.cancelSteps}</p>
        </Card>
      </div>
    </PageColumn>
  );
}

/** Whether the page offers the plans: then the benefits come before them, not after. */
function sellsPlans(phase: MembershipPhase): boolean {
  return (
    phase.name === 'ready' && phase.platform === 'ios' && phase.data.membership.status !== 'active'
  );
}

function PhaseView({
  phase,
  text,
  language,
  centre,
}: {
  phase: MembershipPhase;
  text: MembershipTexts;
  language: Language;
  centre: MembershipCentre;
}) {
  switch (phase.name) {
    // The states before the membership is known share one height (`.compact`): outside the app
    // or logged out, what replaces the skeleton takes its place without moving the cards below.
    case 'connecting':
      return (
        <Card
          className={`${styles.status} ${styles.compact}`}
          aria-busy="true"
          aria-label={text.loading}
        >
          <div className={styles.skeletonLine} />
          <div className={styles.skeletonLineShort} />
          <p className="visually-hidden">{text.loading}</p>
        </Card>
      );
    case 'no-app':
      return (
        <Card className={`${styles.status} ${styles.compact}`}>
          <p className={styles.statusTitle}>{text.onlyIos}</p>
          <p className={styles.small}>
            {phase.platform === 'android' ? text.onlyIosAndroid : text.onlyIosBrowser}
          </p>
        </Card>
      );
    case 'signed-out':
      return (
        <Card className={`${styles.status} ${styles.compact}`}>
          <p className={styles.statusTitle}>{text.logInNeeded}</p>
          <button
            type="button"
            className={`${buttons.primary} ${styles.wide}`}
            onClick={centre.logIn}
          >
            {text.logIn}
          </button>
        </Card>
      );
    case 'load-failed':
      return (
        <Card className={`${styles.status} ${styles.compact}`}>
          <p className={styles.statusTitle} role="alert">
            {text.loadFailed}
          </p>
          <button
            type="button"
            className={`${buttons.primary} ${styles.wide}`}
            onClick={centre.retry}
          >
            {text.retry}
          </button>
        </Card>
      );
    case 'ready':
      if (phase.platform !== 'ios') {
        return (
          <>
            <MembershipStatus membership={phase.data.membership} text={text} language={language} />
            <Card className={`${styles.status} ${styles.compact}`}>
              <p className={styles.statusTitle}>{text.onlyIos}</p>
              <p className={styles.small}>{text.onlyIosAndroid}</p>
            </Card>
          </>
        );
      }
      // A member manages the one subscription; only someone without one is offered a purchase.
      return phase.data.membership.status === 'active' ? (
        <MemberPanel
          data={phase.data}
          flow={phase.flow}
          products={phase.products}
          text={text}
          language={language}
          announcement={centre.announcement}
          onMembership={centre.setMembership}
        />
      ) : (
        <>
          <MembershipStatus membership={phase.data.membership} text={text} language={language} />
          <Benefits text={text} />
          <PurchasePanel
            data={phase.data}
            flow={phase.flow}
            products={phase.products}
            text={text}
            language={language}
            onMembership={centre.setMembership}
          />
        </>
      );
  }
}

function Benefits({ text }: { text: MembershipTexts }) {
  return (
    <Card aria-labelledby="vip-benefits">
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
    </Card>
  );
}
