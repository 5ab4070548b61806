import { useEffect, useId, useState, useSyncExternalStore, type SyntheticEvent } from 'react';
import {
  DEBIT_FAULTS,
  MAX_EVENTS_FAIL_NEXT,
  debitFaultSchema,
  type DebitFault,
  type StandInLedger,
  type StandInReceivedEvents,
} from '@guquan/contract/demo-platform';
import { PLATFORM_REFRESH_MS, type PlatformWatch } from './platform-watch';
import type { SimulatorStore } from './simulator-state';
import styles from './simulator-panel.module.css';

/**
 * The panel's "Platform" section: what the stand-in platform holds (balances, the last debits,
 * the deliveries of events it received), read every 2 s while the panel is open and the section
 * expanded, and what the next debit and deliveries meet there. A tester's tool, in English.
 */
const DEBIT_FAULT_LABELS: Record<DebitFault, string> = {
  none: 'Answers as usual',
  fail: 'Fails (500, nothing charged)',
  hang: 'Hangs (never answers)',
  lose_answer: 'Loses its answer (charged, connection cut)',
};

const DEBIT_FAULT_NOTICES: Record<DebitFault, string> = {
  none: 'The next debit is answered as usual.',
  fail: 'The next debit fails.',
  hang: 'The next debit hangs.',
  lose_answer: 'The next debit loses its answer.',
};

/** Rows a table shows: the newest. */
export const PLATFORM_ROWS = 8;

/** An idempotency key, short enough for the panel; the whole key is its title. */
export function shortKey(key: string): string {
  return key.length > 8 ? `${key.slice(0, 8)}…` : key;
}

/** The time of day of an ISO instant, 24-hour, in the tester's time zone. */
export function timeOf(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString('en-GB', { hour12: false });
}

export interface PlatformSectionProps {
  store: SimulatorStore;
  watch: PlatformWatch;
}

export function PlatformSection({ store, watch }: PlatformSectionProps) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const shown = state.settings.showPlatform;
  const watching = state.open && shown;
  const [announcement, setAnnouncement] = useState('');
  const [chosenFault, setChosenFault] = useState<DebitFault | null>(null);
  const [failNext, setFailNext] = useState(1);
  const id = useId();
  const ids = {
    heading: `${id}-heading`,
    body: `${id}-body`,
    debitFault: `${id}-debit-fault`,
    failNext: `${id}-fail-next`,
  };

  useEffect(() => {
    if (!watching) return;
    void watch.refresh();
    const timer = setInterval(() => {
      void watch.refresh();
    }, PLATFORM_REFRESH_MS);
    return () => {
      clearInterval(timer);
    };
  }, [watching, watch]);

  const nicknames = new Map(state.users.map((user) => [user.id, user.nickname]));
  const nameOf = (userId: string) => nicknames.get(userId) ?? userId;

  const chooseDebitFault = async (fault: DebitFault) => {
    setChosenFault(fault);
    const taken = await watch.setFaults({ debit: fault });
    setChosenFault(null);
    if (taken) setAnnouncement(DEBIT_FAULT_NOTICES[fault]);
  };
  const refuseDeliveries = async (event: SyntheticEvent) => {
    event.preventDefault();
    if (await watch.setFaults({ eventsFailNext: failNext })) {
      setAnnouncement(`The receiver refuses the next ${failNext} deliveries.`);
    }
  };

  const view = state.platformView;
  const ledgerPart = (ledger: StandInLedger) => (
    <>
      <h4 className={styles.subheading}>Balances</h4>
      {ledger.balances.length === 0 ? (
        <p className={styles.hint}>No balances yet.</p>
      ) : (
        <ul className={styles.list}>
          {ledger.balances.map((entry) => (
            <li key={entry.userId}>
              {nameOf(entry.userId)}: {entry.balance} points
            </li>
          ))}
        </ul>
      )}

      <div className={styles.field}>
        <label htmlFor={ids.debitFault}>Next debit</label>
        <select
          id={ids.debitFault}
          className={styles.control}
          value={chosenFault ?? ledger.nextDebitFault}
          onChange={(event) => {
            const fault = debitFaultSchema.safeParse(event.target.value);
            if (fault.success) void chooseDebitFault(fault.data);
          }}
        >
          {DEBIT_FAULTS.map((fault) => (
            <option key={fault} value={fault}>
              {DEBIT_FAULT_LABELS[fault]}
            </option>
          ))}
        </select>
      </div>

      {ledger.debits.length === 0 ? (
        <p className={styles.hint}>No debits yet.</p>
      ) : (
        <table className={styles.table}>
          <caption className={styles.subheading}>Last debits</caption>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col" className={styles.wide}>
                Outcome
              </th>
              <th scope="col">Balance</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {ledger.debits.slice(0, PLATFORM_ROWS).map((debit) => (
              <tr key={debit.key}>
                <td title={debit.key}>{shortKey(debit.key)}</td>
                <td className={styles.wide}>
                  {debit.outcome === 'charged'
                    ? `Charged ${debit.points}`
                    : `Refused ${debit.points}: too few points`}
                </td>
                <td>{debit.balance}</td>
                <td>{timeOf(debit.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );

  const receivedPart = (received: StandInReceivedEvents) => (
    <>
      <form className={styles.field} onSubmit={(event) => void refuseDeliveries(event)}>
        <label htmlFor={ids.failNext}>Deliveries the receiver refuses next (503)</label>
        <div className={styles.row}>
          <input
            id={ids.failNext}
            className={styles.control}
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_EVENTS_FAIL_NEXT}
            step={1}
            value={failNext}
            onChange={(event) => {
              const count = Math.round(Number(event.target.value));
              if (Number.isFinite(count)) {
                setFailNext(Math.min(MAX_EVENTS_FAIL_NEXT, Math.max(0, count)));
              }
            }}
          />
          <button type="submit" className={styles.button}>
            Refuse
          </button>
        </div>
        <p className={styles.hint}>
          {received.failNext === 0
            ? 'The receiver takes every delivery.'
            : `The receiver refuses the next ${received.failNext}.`}
        </p>
      </form>

      {received.deliveries.length === 0 ? (
        <p className={styles.hint}>No deliveries received yet.</p>
      ) : (
        <table className={styles.table}>
          <caption className={styles.subheading}>Deliveries received</caption>
          <thead>
            <tr>
              <th scope="col" className={styles.wide}>
                Events
              </th>
              <th scope="col">Attempts</th>
              <th scope="col">Time</th>
            </tr>
          </thead>
          <tbody>
            {received.deliveries.slice(0, PLATFORM_ROWS).map((delivery) => (
              <tr key={delivery.webhookId}>
                <td className={styles.wide} title={delivery.webhookId}>
                  {[
                    ...new Set(
                      delivery.events.map((event) => `${event.type} (${nameOf(event.userId)})`),
                    ),
                  ].join(', ')}
                </td>
                <td>{delivery.attempt}</td>
                <td>{timeOf(delivery.receivedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );

  return (
    <section className={styles.section} aria-labelledby={ids.heading}>
      <h3 id={ids.heading} className={styles.sectionHeading}>
        <button
          type="button"
          className={styles.disclosure}
          aria-expanded={shown}
          aria-controls={ids.body}
          onClick={() => {
            store.changeSettings({ showPlatform: !shown });
          }}
        >
          Platform (stand-in)
        </button>
      </h3>
      <div id={ids.body} className={styles.sectionBody} hidden={!shown}>
        <p className={styles.hint}>
          What the stand-in platform holds, read every {PLATFORM_REFRESH_MS / 1000} s while this
          panel is open.
        </p>
        <p aria-live="polite" className={state.platformProblem ? styles.problem : styles.hint}>
          {state.platformProblem ?? announcement}
        </p>
        {view === null ? (
          <p className={styles.hint}>Reading the platform…</p>
        ) : (
          <>
            {view.ledger ? (
              ledgerPart(view.ledger)
            ) : (
              <p className={styles.hint}>The stand-in has no points ledger yet.</p>
            )}
            {view.received ? (
              receivedPart(view.received)
            ) : (
              <p className={styles.hint}>The stand-in has no events receiver yet.</p>
            )}
          </>
        )}
      </div>
    </section>
  );
}
