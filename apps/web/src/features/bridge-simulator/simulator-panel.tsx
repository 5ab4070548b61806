import { useEffect, useId, useSyncExternalStore, type KeyboardEvent } from 'react';
import { readLinkOrigin } from '../../lib/app-links/link-origin';
import { describeFirstLaunch, firstLaunchAfterInstall, simulatedInstallId } from './first-launch';
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
import styles from './simulator-panel.module.css';

/**
 * The tester's controls for the simulated app: a toggle in the corner, and a panel to pick the
 * demo user, decide what purchases do, slow down or drop replies and pick the platform, and
 * watch the stand-in platform (platform-section.tsx). A tester's tool, so in English only;
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
  const ids = {
    heading: `${id}-heading`,
    panel: `${id}-panel`,
    user: `${id}-user`,
    delay: `${id}-delay`,
  };

  useEffect(() => {
    if (open && state.usersStatus === 'idle') void app.loadUsers();
  }, [open, state.usersStatus, app]);

  const close = () => {
    store.update({ open: false });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') close();
  };
  /** The app's first launch after its installation: it reads the clipboard once (docs/app-links.md). */
  const firstLaunch = async () => {
    let clipboardText: string;
    try {
      clipboardText = await navigator.clipboard.readText();
    } catch {
      store.notify(
        'First launch: the clipboard was not read (not allowed), so the app opens on its start screen.',
      );
      return;
    }
    const launch = await firstLaunchAfterInstall({
      clipboardText,
      linkOrigin: readLinkOrigin(document),
      installId: simulatedInstallId(sessionStorage),
      fetchFn: fetch.bind(window),
    });
    // The app clears the share text it claimed, so no later launch finds it again.
    if (launch.outcome === 'opens' && launch.by === 'code')
      await navigator.clipboard.writeText('').catch(() => undefined);
    store.notify(describeFirstLaunch(launch));
  };
  const sessionUserMissing =
    session !== null && !state.users.some((user) => user.id === session.userId);

  return (
    <aside className={styles.dock} aria-labelledby={ids.heading}>
      <h2 id={ids.heading} className="visually-hidden">
        App simulator
      </h2>
      <button
        type="button"
        className={styles.toggle}
        aria-expanded={open}
        aria-controls={ids.panel}
        onClick={() => {
          store.update({ open: !open });
        }}
      >
        {open ? 'Hide app simulator' : 'App simulator'}
      </button>

      <div role="status" className={styles.notices}>
        {state.notices.map((notice) => (
          <p key={notice.id} className={styles.notice}>
            <span>{notice.text}</span>
            <button
              type="button"
              className={styles.button}
              onClick={() => {
                app.dismissNotice(notice.id);
              }}
            >
              {notice.resumesPage ? 'Back to the page' : 'OK'}
            </button>
          </p>
        ))}
      </div>

      <div id={ids.panel} className={styles.panel} hidden={!open} onKeyDown={onKeyDown}>
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

        <div className={styles.field}>
          <p className={styles.hint}>
            A new install’s first launch reads the clipboard once for a share page’s share text (the
            browser asks, as the phone would) and opens where it points.
          </p>
          <button type="button" className={styles.button} onClick={() => void firstLaunch()}>
            First launch after install
          </button>
        </div>

        <div className={styles.field}>
          <p>Unfinished App Store transactions: {state.unfinishedCount}</p>
          <button type="button" className={styles.button} onClick={app.forgetTransactions}>
            Forget all transactions
          </button>
        </div>

        <PlatformSection store={store} watch={platform} />

        <button type="button" className={styles.button} onClick={close}>
          Close
        </button>
      </div>
    </aside>
  );
}
