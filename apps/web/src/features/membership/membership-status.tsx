import type { Language } from '@guquan/contract/language';
import type { Membership } from '@guquan/contract/membership';
import { Card } from '../../components/card/card';
import { formatDate } from '../../lib/format/dates';
import type { MembershipTexts } from './membership-texts';
import styles from './membership-page.module.css';

/** The user's membership: active until, expired on, or none. */
export function MembershipStatus({
  membership,
  text,
  language,
}: {
  membership: Membership;
  text: MembershipTexts;
  language: Language;
}) {
  const date = membership.expiresAt ? formatDate(membership.expiresAt, language) : undefined;
  return (
    <Card className={styles.status} data-status={membership.status} aria-label={text.heading}>
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
    </Card>
  );
}
