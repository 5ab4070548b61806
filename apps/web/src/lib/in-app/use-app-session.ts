import { useCallback, useEffect, useRef, useState } from 'react';
import type { BridgePlatform } from '@guquan/contract/bridge';
import { connectBridge } from '../bridge/connect-bridge';
import type { Bridge } from '../bridge/native-bridge';

/** The logged-in user as the app hands them over; the token goes in the Authorization header. */
export interface AppSession {
  token: string;
  userId: string;
}

/** The app behind the page, once the bridge answered. */
export interface ConnectedApp {
  bridge: Bridge;
  /** From the handshake; undefined when the page did not ask for one. */
  platform: BridgePlatform | undefined;
}

/**
 * Where an in-app page's start-up is: bridge → handshake → session → logged in. Nothing of it is
 * known on the server, which renders `connecting`.
 */
export type AppSessionPhase =
  | { kind: 'connecting' }
  /** An ordinary browser: no app transport (and no demo simulator). */
  | { kind: 'no_app' }
  /** A step that should have answered did not; the page offers to start over. */
  | { kind: 'failed'; step: 'connect' | 'handshake' }
  | ({ kind: 'failed'; step: 'session' } & ConnectedApp)
  | ({ kind: 'logged_out' } & ConnectedApp)
  | ({ kind: 'logged_in'; session: AppSession } & ConnectedApp);

export interface AppSessionOptions {
  /** Ask the app for its platform first (pages that differ per platform, or check the app). */
  handshake: boolean;
  /** False: the page has nothing to ask the app for (e.g. a malformed link); nothing starts. */
  enabled?: boolean;
}

/** `gave_up`: the user closed the app's log-in; `failed`: the app could not show it. */
export type LogInOutcome = 'logged_in' | 'gave_up' | 'failed';

export interface AppSessionControls {
  phase: AppSessionPhase;
  /** Starts over from the bridge (a retry button). */
  restart: () => void;
  /** Shows the app's log-in; on success the phase is `logged_in` with the new session. */
  logIn: () => Promise<LogInOutcome>;
  /** The server said 401: the session ended (another device, a log-out). */
  sessionEnded: () => void;
  /**
   * Asks the app for its token again (getSession): the app hands a refreshed one (the platform's
   * token: same log-in, a later `iat`). A page whose own token a change of its making ended (a
   * confirmed account deletion) goes on with it; null sets the phase to `logged_out`.
   */
  refreshSession: () => Promise<AppSession | null>;
}

/**
 * The one start-up of every in-app page. Runs in effects only, so the server's HTML is the page's
 * skeleton; answers that arrive after the page left or started over change nothing.
 */
export function useAppSession({
  handshake,
  enabled = true,
}: AppSessionOptions): AppSessionControls {
  const [phase, setPhase] = useState<AppSessionPhase>({ kind: 'connecting' });
  const [attempt, setAttempt] = useState(0);
  const app = useRef<ConnectedApp | undefined>(undefined);

  useEffect(() => {
    if (!enabled) return undefined;
    const life = { gone: false };
    const settle = (next: AppSessionPhase) => {
      if (!life.gone) setPhase(next);
    };
    void (async () => {
      let bridge: Bridge;
      try {
        bridge = await connectBridge();
      } catch {
        settle({ kind: 'failed', step: 'connect' });
        return;
      }
      if (bridge.transport() === 'none') {
        settle({ kind: 'no_app' });
        return;
      }
      let platform: BridgePlatform | undefined;
      if (handshake) {
        try {
          platform = (await bridge.call('handshake', {})).platform;
        } catch {
          settle({ kind: 'failed', step: 'handshake' });
          return;
        }
      }
      const connected: ConnectedApp = { bridge, platform };
      if (!life.gone) app.current = connected;
      let session: AppSession | null;
      try {
        session = await bridge.call('getSession', {});
      } catch {
        settle({ kind: 'failed', step: 'session', ...connected });
        return;
      }
      settle(
        session
          ? { kind: 'logged_in', session, ...connected }
          : { kind: 'logged_out', ...connected },
      );
    })();
    return () => {
      life.gone = true;
    };
  }, [attempt, enabled, handshake]);

  // Back in view after a screen of the app (its own log-in, say): the page follows the app's
  // session when the user changed there (another user, or logged in or out).
  const connectedBridge =
    phase.kind === 'logged_in' || phase.kind === 'logged_out' ? phase.bridge : undefined;
  const userId = phase.kind === 'logged_in' ? phase.session.userId : null;
  useEffect(() => {
    if (!connectedBridge) return undefined;
    return connectedBridge.on('resumed', () => {
      void (async () => {
        const connected = app.current;
        if (!connected) return;
        let session: AppSession | null;
        try {
          session = await connected.bridge.call('getSession', {});
        } catch {
          return;
        }
        if (app.current !== connected || (session?.userId ?? null) === userId) return;
        setPhase(
          session
            ? { kind: 'logged_in', session, ...connected }
            : { kind: 'logged_out', ...connected },
        );
      })();
    });
  }, [connectedBridge, userId]);

  const restart = useCallback(() => {
    app.current = undefined;
    setPhase({ kind: 'connecting' });
    setAttempt((n) => n + 1);
  }, []);

  const logIn = useCallback(async (): Promise<LogInOutcome> => {
    const connected = app.current;
    if (!connected) return 'failed';
    let session: AppSession | null;
    try {
      session = await connected.bridge.call('login', {});
    } catch {
      return 'failed';
    }
    if (!session) return 'gave_up';
    setPhase({ kind: 'logged_in', session, ...connected });
    return 'logged_in';
  }, []);

  const sessionEnded = useCallback(() => {
    const connected = app.current;
    setPhase(connected ? { kind: 'logged_out', ...connected } : { kind: 'no_app' });
  }, []);

  const refreshSession = useCallback(async (): Promise<AppSession | null> => {
    const connected = app.current;
    if (!connected) return null;
    let session: AppSession | null;
    try {
      session = await connected.bridge.call('getSession', {});
    } catch {
      return null;
    }
    if (app.current !== connected) return null;
    setPhase(
      session ? { kind: 'logged_in', session, ...connected } : { kind: 'logged_out', ...connected },
    );
    return session;
  }, []);

  return { phase, restart, logIn, sessionEnded, refreshSession };
}
