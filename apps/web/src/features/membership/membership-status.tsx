import type { Language } from '@guquan/contract/language';
import type { Membership } from '@guquan/contract/membership';
import { Card } from '../../components/card/card';
import { formatDate } from '../../lib/format/dates';
import type { MembershipTexts } from './membership-texts';
import styles from './membership-page.module.css';

/**
 * The user's membership: active until, or expired on. Someone who never was a member is told
 * nothing here (the benefits and the plans below say what membership is): no empty card.
 */
export function MembershipStatus({
  membership,
  text,
  language,
}: {
  membership: Membership;
  text: MembershipTexts;
  language: Language;
}) {
  if (membership.status === 'none') return null;
  const date = membership.expiresAt ? formatDate(membership.expiresAt, language) : undefined;
  return (
    <Card className={styles.status} data-status={membership.status} aria-label={text.heading}>
      <p className={styles.statusTitle}>
        {membership.status === 'active' ? text.statusActive : text.statusExpired}
      </p>
      {date ? (
        <p className={styles.small}>
          {membership.status === 'active' ? text.expiresOn(date) : text.expiredOn(date)}
        </p>
      ) : null}
      {membership.status === 'active' && membership.autoRenew !== null ? (
        <p className={styles.small}>{membership.autoRenew ? text.renewOn : text.renewOff}</p>
      ) : null}
    </Card>
  );
}
