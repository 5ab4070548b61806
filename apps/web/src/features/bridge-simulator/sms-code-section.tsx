import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { DemoLatestSms } from './demo-api';
import styles from './simulator-panel.module.css';

/**
 * The demo SMS code: what the demo server's stand-in SMS sender "sent" to the logged-in demo
 * user's phone (the account deletion's code), read with the user's token when the panel opens,
 * when the user changes, and on "Refresh". A browser cannot read it at its address, which wants
 * the token the app holds.
 */
type SmsView =
  | { kind: 'loading' }
  | { kind: 'none' }
  | { kind: 'code'; sms: DemoLatestSms }
  | { kind: 'error'; message: string };

export interface SmsCodeSectionProps {
  /** The logged-in demo user (undefined: logged out). */
  userId: string | undefined;
  /** Whether the panel is shown: nothing is read while it is hidden. */
  active: boolean;
  latestSms: () => Promise<DemoLatestSms | null>;
}

async function readSms(latestSms: () => Promise<DemoLatestSms | null>): Promise<SmsView> {
  try {
    const sms = await latestSms();
    return sms ? { kind: 'code', sms } : { kind: 'none' };
  } catch (error) {
    return { kind: 'error', message: error instanceof Error ? error.message : String(error) };
  }
}

/** 14:03:05, in the tester's time zone. */
function timeOf(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-GB');
}

export function SmsCodeSection({ userId, active, latestSms }: SmsCodeSectionProps) {
  /** What was read, and for whom: a view of another user's reads shows as nothing read yet. */
  const [lastRead, setLastRead] = useState<{ userId: string; view: SmsView } | undefined>(
    undefined,
  );
  // Not read yet for this user: the read the effect started is on its way.
  const view: SmsView =
    lastRead && lastRead.userId === userId ? lastRead.view : { kind: 'loading' };
  const headingId = useId();
  /** Only the latest read's answer counts (the user may change while one is on its way). */
  const reads = useRef(0);

  /** Reads the code for the user; only the latest read's answer counts. */
  const read = useCallback(
    (reader: string) => {
      reads.current += 1;
      const mine = reads.current;
      void readSms(latestSms).then((next) => {
        if (reads.current === mine) setLastRead({ userId: reader, view: next });
      });
    },
    [latestSms],
  );

  useEffect(() => {
    // Hidden or logged out: an answer on its way no longer counts.
    reads.current += 1;
    if (active && userId) read(userId);
  }, [active, userId, read]);

  return (
    <section className={styles.smsSection} aria-labelledby={headingId}>
      <h3 id={headingId} className={styles.sectionHeading}>
        Demo SMS code
      </h3>
      {userId ? (
        <>
          <p className={styles.hint} aria-live="polite">
            {view.kind === 'loading' && 'Reading the latest code…'}
            {view.kind === 'none' &&
              'No code has been sent to this user yet: ask for one on the page (Delete the account), then refresh.'}
            {view.kind === 'code' && (
              <>
                Sent to {view.sms.maskedPhone} at {timeOf(view.sms.sentAt)}:{' '}
                <strong className={styles.code} data-sms-code="">
                  {view.sms.code}
                </strong>
              </>
            )}
          </p>
          {view.kind === 'error' && (
            <p role="alert" className={styles.problem}>
              {view.message}
            </p>
          )}
          <button
            type="button"
            className={styles.button}
            onClick={() => {
              setLastRead({ userId, view: { kind: 'loading' } });
              read(userId);
            }}
          >
            Refresh SMS code
          </button>
        </>
      ) : (
        <p className={styles.hint}>Pick a demo user to see the SMS codes sent to their phone.</p>
      )}
    </section>
  );
}
