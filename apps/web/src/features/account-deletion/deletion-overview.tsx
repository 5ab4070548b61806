import { useState, type ReactNode } from 'react';
import {
  DELETION_BLOCKER_APP_ROUTES,
  type DeletionOverview,
} from '@guquan/contract/account-deletion';
import type { Language } from '@guquan/contract/language';
import { Card } from '../../components/card/card';
import buttons from '../../components/button.module.css';
import { formatDate, formatDateTime } from '../../lib/format/dates';
import type { DeletionTexts } from './deletion-texts';
import { deletionApi } from './deletion-api';
import type { AccountDeletion } from './use-account-deletion';
import { VerifyForm } from './verify-form';
import styles from './account-deletion-page.module.css';

export interface OverviewProps {
  t: DeletionTexts;
  language: Language;
  overview: DeletionOverview;
  token: string;
  deletion: AccountDeletion;
}

/** What is deleted, kept and lost, and the request: its form, its blockers or its cool-off. */
export function DeletionOverviewView(props: OverviewProps) {
  const { t, language, overview } = props;
  const [cancelled, setCancelled] = useState(false);
  const [cancelError, setCancelError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { content, losses, request, blockers } = overview;

  const cancel = async () => {
    setBusy(true);
    const result = await deletionApi.cancel(props.token);
    setBusy(false);
    if (result.ok) {
      setCancelled(true);
      setCancelError(undefined);
      props.deletion.setOverview({ ...overview, request: null });
    } else if (result.kind === 'unauthorized') props.deletion.sessionEnded();
    else setCancelError(t.requestFailed);
  };

  const blocked = request === null && blockers.length > 0;
  const lost = [
    losses.points === null || losses.points > 0 ? t.lostPoints(losses.points) : '',
    losses.designs === null || losses.designs > 0 ? t.lostDesigns(losses.designs) : '',
    losses.membershipUntil === null
      ? ''
      : t.lostMembership(formatDate(losses.membershipUntil, language)),
  ].filter(Boolean);

  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{t.heading}</h1>
      {overview.cancelledByLogin && !request ? (
        <p role="status" className={styles.success}>
          {t.cancelledByLogin(formatDateTime(overview.cancelledByLogin.at, language))}
        </p>
      ) : null}
      {request ? (
        <Card className={styles.coolOff} aria-labelledby="cool-off-heading">
          <h2 id="cool-off-heading" className={styles.sectionTitle}>
            {t.coolOffHeading}
          </h2>
          <p className={styles.coolOffDate}>
            {t.coolOffBody(formatDateTime(request.deletesAt, language))}
          </p>
          <p className={styles.note}>{t.coolOffLogin}</p>
          {cancelError ? (
            <p role="alert" className={styles.error}>
              {cancelError}
            </p>
          ) : null}
          <button
            type="button"
            className={buttons.primary}
            disabled={busy}
            onClick={() => void cancel()}
          >
            {t.cancelRequest}
          </button>
        </Card>
      ) : blocked ? (
        // What stands in the way comes first, with the way to settle it: not after three cards.
        <BlockersCard t={t} language={language} blockers={blockers} deletion={props.deletion} />
      ) : (
        <p className={styles.intro}>{t.intro}</p>
      )}
      {cancelled && !request ? (
        <p role="status" className={styles.success}>
          {t.cancelled}
        </p>
      ) : null}

      <ListCard
        id="deleted-heading"
        heading={t.deletedHeading}
        lines={[...t.deletedItems(content), t.deletedProfile]}
      />
      <ListCard
        id="lost-heading"
        heading={t.lostHeading}
        lines={lost.length > 0 ? lost : [t.lostNothing]}
      >
        {losses.renewingSubscription ? (
          <p className={styles.warning}>{t.subscriptionWarning}</p>
        ) : null}
      </ListCard>
      <ListCard
        id="kept-heading"
        heading={t.keptHeading}
        lines={overview.retained.map((entry) => t.kept[entry.kind](entry.months))}
      />

      {request || blocked ? null : overview.maskedPhone === null ? (
        <p className={styles.error} role="alert">
          {t.noPhone}
        </p>
      ) : (
        <VerifyForm {...props} maskedPhone={overview.maskedPhone} />
      )}
    </div>
  );
}

/** Each open matter, in plain words, with the screen of the app that settles it. */
function BlockersCard({
  t,
  language,
  blockers,
  deletion,
}: {
  t: DeletionTexts;
  language: Language;
  blockers: DeletionOverview['blockers'];
  deletion: OverviewProps['deletion'];
}) {
  const [failed, setFailed] = useState<string | undefined>(undefined);
  return (
    <Card className={styles.blocked} aria-labelledby="blocked-heading">
      <h2 id="blocked-heading" className={styles.sectionTitle}>
        {t.blockedHeading}
      </h2>
      <p className={styles.note}>{t.blockedIntro(blockers.length)}</p>
      <ul className={styles.blockers}>
        {blockers.map((blocker) => {
          const key = `${blocker.kind}-${blocker.since}`;
          const text = t.blocker[blocker.kind];
          return (
            <li key={key} className={styles.blocker}>
              <p className={styles.blockerTitle}>{text.label(blocker.title)}</p>
              <p className={styles.blockerSince}>{t.since(formatDate(blocker.since, language))}</p>
              <p className={styles.note}>{text.resolve}</p>
              <button
                type="button"
                className={`${buttons.secondary} ${styles.blockerAction}`}
                onClick={() => {
                  setFailed(undefined);
                  void deletion
                    .openAppRoute(DELETION_BLOCKER_APP_ROUTES[blocker.kind])
                    .then((opened) => {
                      if (!opened) setFailed(key);
                    });
                }}
              >
                {text.action}
              </button>
              {failed === key ? (
                <p role="alert" className={styles.error}>
                  {t.openFailed}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </Card>
  );
}

/** A card of the overview: a heading and a list of what it says, then anything to add. */
function ListCard({
  id,
  heading,
  lines,
  children,
}: {
  id: string;
  heading: string;
  lines: readonly string[];
  children?: ReactNode;
}) {
  return (
    <Card className={styles.card} aria-labelledby={id}>
      <h2 id={id} className={styles.sectionTitle}>
        {heading}
      </h2>
      <ul className={styles.list}>
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
      {children}
    </Card>
  );
}
