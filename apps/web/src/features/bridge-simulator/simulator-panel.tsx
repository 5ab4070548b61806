import { useEffect, useId, useSyncExternalStore } from 'react';
import { FirstLaunchSection } from './first-launch-section';
import { PlatformSection } from './platform-section';
import type { PlatformWatch } from './platform-watch';
import type { SimulatedApp } from './simulated-app';
import { PENDING_APPROVAL_MS } from './simulated-app';
import {
  MAX_DELAY_MS,
  PURCHASE_OUTCOMES,
  type PurchaseOutcome,
  type SimulatorStore,
} from './simulator-state';
import { SimulatorDock } from './simulator-dock';
import styles from './simulator-panel.module.css';
import { SmsCodeSection } from './sms-code-section';

/**
 * The tester's controls for the simulated app on in-app pages: a toggle in the corner, and a
 * panel to pick the demo user (which logs the page in), read the demo SMS code, decide what
 * purchases do, slow down or drop replies and pick the platform, play the first launch after an
 * install, and watch the stand-in platform (platform-section.tsx). A tester's tool, so in English only;
 * notices show what the app would do on screen.
 */
const OUTCOME_LABELS: Record<PurchaseOutcome, string> = {
  approve: 'Approve (signed transaction)',
  cancel: 'Cancel (the user backs out)',
  fail: 'Fail (StoreKit error)',
  pending: `Pending (Ask to Buy, approved after ${PENDING_APPROVAL_MS / 1000} s)`,
};

export interface SimulatorPanelProps {
  store: SimulatorStore;
  app: SimulatedApp;
  platform: PlatformWatch;
}

export function SimulatorPanel({ store, app, platform }: SimulatorPanelProps) {
  const state = useSyncExternalStore(store.subscribe, store.get);
  const { settings, session, open } = state;
  const id = useId();
  const ids = { user: `${id}-user`, delay: `${id}-delay` };

  useEffect(() => {
    if (open && state.usersStatus === 'idle') void app.loadUsers();
  }, [open, state.usersStatus, app]);

  const sessionUserMissing =
    session !== null && !state.users.some((user) => user.id === session.userId);

  return (
    <SimulatorDock store={store} onDismissNotice={app.dismissNotice}>
      <p className={styles.hint}>
        Plays the 谷圈 app for this page (demo server only). Escape closes this panel.
      </p>

      {state.loginRequested && (
        <div role="alert" className={styles.request}>
          <p>The page asks you to log in: pick a user.</p>
          <button type="button" className={styles.button} onClick={app.declineLogin}>
            Don’t log in
          </button>
        </div>
      )}

      <div className={styles.field}>
        <label htmlFor={ids.user}>Demo user</label>
        <select
          id={ids.user}
          className={styles.control}
          value={session?.userId ?? ''}
          disabled={state.usersStatus === 'loading'}
          onChange={(event) => {
            const userId = event.target.value;
            if (userId) void app.logIn(userId);
            else app.logOut();
          }}
        >
          <option value="">Logged out</option>
          {sessionUserMissing && <option value={session.userId}>{session.userId}</option>}
          {state.users.map((user) => (
            <option key={user.id} value={user.id}>
              {user.nickname}
            </option>
          ))}
        </select>
      </div>
      {state.usersStatus === 'loading' && <p className={styles.hint}>Loading demo users…</p>}
      {state.usersStatus === 'error' && (
        <button type="button" className={styles.button} onClick={() => void app.loadUsers()}>
          Load demo users again
        </button>
      )}
      {state.problem && (
        <p role="alert" className={styles.problem}>
          {state.problem}
        </p>
      )}

      <SmsCodeSection userId={session?.userId} active={open} latestSms={app.latestSms} />

      <label className={styles.check}>
        <input
          type="checkbox"
          checked={settings.autoLogin}
          onChange={(event) => {
            store.changeSettings({ autoLogin: event.target.checked });
          }}
        />
        Auto: when the page asks to log in, log in the first demo user
      </label>

      <fieldset className={styles.group}>
        <legend>What the next purchase does</legend>
        {PURCHASE_OUTCOMES.map((outcome) => (
          <label key={outcome} className={styles.check}>
            <input
              type="radio"
              name={`${id}-outcome`}
              value={outcome}
              checked={settings.purchaseOutcome === outcome}
              onChange={() => {
                store.changeSettings({ purchaseOutcome: outcome });
              }}
            />
            {OUTCOME_LABELS[outcome]}
          </label>
        ))}
      </fieldset>

      <div className={styles.field}>
        <label htmlFor={ids.delay}>Reply delay (ms)</label>
        <input
          id={ids.delay}
          className={styles.control}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_DELAY_MS}
          step={100}
          value={settings.delayMs}
          onChange={(event) => {
            const delayMs = Math.round(Number(event.target.value));
            if (Number.isFinite(delayMs)) store.changeSettings({ delayMs });
          }}
        />
      </div>

      <label className={styles.check}>
        <input
          type="checkbox"
          checked={settings.dropReplies}
          onChange={(event) => {
            store.changeSettings({ dropReplies: event.target.checked });
          }}
        />
        Drop replies (the page’s calls time out)
      </label>

      <fieldset className={styles.group}>
        <legend>Platform the handshake reports</legend>
        {(['ios', 'android'] as const).map((platform) => (
          <label key={platform} className={styles.check}>
            <input
              type="radio"
              name={`${id}-platform`}
              value={platform}
              checked={settings.platform === platform}
              onChange={() => {
                store.changeSettings({ platform });
              }}
            />
            {platform === 'ios' ? 'iOS' : 'Android'}
          </label>
        ))}
      </fieldset>

      <FirstLaunchSection store={store} />

      <div className={styles.field}>
        <p>Unfinished App Store transactions: {state.unfinishedCount}</p>
        <button type="button" className={styles.button} onClick={app.forgetTransactions}>
          Forget all transactions
        </button>
      </div>

      <PlatformSection store={store} watch={platform} />
    </SimulatorDock>
  );
}
