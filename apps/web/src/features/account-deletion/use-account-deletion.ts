import { useCallback, useEffect, useState } from 'react';
import type { DeletionOverview, DeletionRequest } from '@guquan/contract/account-deletion';
import { useAppSession, type AppSession } from '../../lib/in-app/use-app-session';
import { deletionApi, type DeletionResult } from './deletion-api';

/** Where the page is. Nothing here is known on the server: it renders `loading`. */
export type DeletionPhase =
  | { kind: 'loading' }
  | { kind: 'no_app' }
  | { kind: 'logged_out' }
  | { kind: 'network' }
  /** The app did not answer the bridge (its session never came): not the network. */
  | { kind: 'app_silent' }
  | { kind: 'ready'; overview: DeletionOverview; token: string };

export interface AccountDeletion {
  phase: DeletionPhase;
  logIn: () => void;
  /** Starts over from the bridge. */
  retry: () => void;
  /** Fetches the overview again, keeping the page as it is meanwhile. */
  reload: () => void;
  /** The page changed the overview (a request made or cancelled). */
  setOverview: (overview: DeletionOverview) => void;
  /**
   * The request is made: the app is told (it logs out when the user leaves the page), and the
   * page asks it for a refreshed token, since the confirmation ended every token issued before it
   * (this page's own too): with it the page shows the date and offers to cancel.
   */
  requested: (request: DeletionRequest) => void;
  /** The server said 401: ask to log in again. */
  sessionEnded: () => void;
  /** Opens a screen of the app (a blocker's resolution); false when the app could not. */
  openAppRoute: (route: string) => Promise<boolean>;
}

interface Loaded {
  session: AppSession;
  overview: DeletionOverview | 'network';
}

/** The account deletion page's start-up and data: the app's session, then the overview. */
export function useAccountDeletion(): AccountDeletion {
  const app = useAppSession({ handshake: false });
  const { phase: appPhase, sessionEnded, refreshSession } = app;
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const session = appPhase.kind === 'logged_in' ? appPhase.session : undefined;

  const apply = useCallback(
    (current: AppSession, result: DeletionResult<DeletionOverview>) => {
      if (!result.ok && result.kind === 'unauthorized') sessionEnded();
      else setLoaded({ session: current, overview: result.ok ? result.value : 'network' });
    },
    [sessionEnded],
  );

  const bridge = appPhase.kind === 'logged_in' ? appPhase.bridge : undefined;
  useEffect(() => {
    if (!session) return undefined;
    const life = { gone: false };
    const load = () => {
      void deletionApi.overview(session.token).then((result) => {
        if (!life.gone) apply(session, result);
      });
    };
    load();
    // Back from a screen of the app (a blocker resolved there, say): what changed shows.
    const unsubscribe = bridge?.on('resumed', load);
    return () => {
      life.gone = true;
      unsubscribe?.();
    };
  }, [session, bridge, apply]);

  let phase: DeletionPhase;
  switch (appPhase.kind) {
    case 'connecting':
      phase = { kind: 'loading' };
      break;
    case 'no_app':
    case 'logged_out':
      phase = { kind: appPhase.kind };
      break;
    case 'failed':
      phase = { kind: 'app_silent' };
      break;
    case 'logged_in':
      // A refreshed token of the same user keeps what is shown while it loads again.
      phase =
        loaded?.session.userId !== appPhase.session.userId
          ? { kind: 'loading' }
          : loaded.overview === 'network'
            ? { kind: 'network' }
            : { kind: 'ready', overview: loaded.overview, token: appPhase.session.token };
      break;
  }

  return {
    phase,
    logIn: () => {
      void app.logIn();
    },
    retry: app.restart,
    reload: () => {
      if (!session) return;
      void deletionApi.overview(session.token).then((result) => {
        apply(session, result);
      });
    },
    setOverview: (overview) => {
      if (session) setLoaded({ session, overview });
    },
    requested: (request) => {
      // The app logs out when the user leaves the page; until then the cancel button stays.
      if (appPhase.kind !== 'logged_in') return;
      void appPhase.bridge
        .call('accountDeleted', { deletesAt: request.deletesAt })
        .catch(() => undefined)
        .then(refreshSession);
    },
    sessionEnded,
    openAppRoute: async (route) => {
      if (!bridge) return false;
      try {
        await bridge.call('openAppRoute', { route });
        return true;
      } catch {
        return false;
      }
    },
  };
}
