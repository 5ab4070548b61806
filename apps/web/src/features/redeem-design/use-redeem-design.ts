import { useCallback, useEffect, useRef, useState } from 'react';
import type { Design, DesignView, RedemptionResult } from '@guquan/contract/design';
import { designAppRoute, DESIGNS_APP_ROUTE, EARN_POINTS_APP_ROUTE } from '@guquan/contract/design';
import { useAppSession, type AppSession } from '../../lib/in-app/use-app-session';
import { attemptKey, endAttempt } from './attempt-key';
import { designApi, type ViewAnswer } from './design-api';

/** How often a pending redemption is looked at again, and how many times at most (a minute). */
const POLL_MS = 1_500;
const POLL_LIMIT = 40;

/** Where the page is. Nothing here is known on the server: it renders `loading`. */
export type PagePhase =
  | { kind: 'loading' }
  | { kind: 'invalid_id' }
  | { kind: 'no_app' }
  /** With the design once it is read (what would be redeemed), before the log-in. */
  | { kind: 'logged_out'; design?: Design }
  | { kind: 'not_found' }
  | { kind: 'failed' }
  | { kind: 'ready'; view: DesignView };

/** The redemption on a ready page. */
export type RedeemPhase =
  | { kind: 'idle' }
  | { kind: 'confirming' }
  | { kind: 'submitting' }
  | { kind: 'retryable'; reason: 'failed' | 'too_many_requests' }
  | { kind: 'done'; result: RedemptionResult & { balanceAfter: number } };

export interface RedeemDesign {
  page: PagePhase;
  redeem: RedeemPhase;
  /** The app could not open the drawing. */
  openFailed: boolean;
  retryLoad: () => void;
  logIn: () => void;
  askToRedeem: () => void;
  cancelRedeem: () => void;
  /** Confirms (or retries) the attempt: the same idempotency key until a definite answer. */
  confirmRedeem: () => void;
  openInApp: () => void;
  /** Opens the app's page on earning points. */
  openEarnPoints: () => void;
  /** Opens the app's list of designs (from a retired or unknown one). */
  openDesigns: () => void;
}

interface Loaded {
  session: AppSession;
  page: PagePhase;
}

/**
 * The redeem page's logic: the bridge gives the session, the API the design and the redemption.
 * Runs in the browser only (effects), so the server's HTML is the skeleton.
 */
export function useRedeemDesign(designId: string | undefined): RedeemDesign {
  const app = useAppSession({ handshake: true, enabled: designId !== undefined });
  const { phase: appPhase, sessionEnded, restart, logIn: appLogIn } = app;
  const session = appPhase.kind === 'logged_in' ? appPhase.session : undefined;
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  /** Bumped to fetch the design again for the same session. */
  const [reloads, setReloads] = useState(0);
  const [logInFailed, setLogInFailed] = useState(false);
  const [redeem, setRedeem] = useState<RedeemPhase>({ kind: 'idle' });
  const [openFailed, setOpenFailed] = useState(false);
  const inFlight = useRef(false);
  /** The user's own tap is pending: its completion shows as "redeemed" here. */
  const awaitingTap = useRef(false);

  const apply = useCallback(
    (current: AppSession, answer: ViewAnswer) => {
      if (designId === undefined) return;
      if (answer.ok) {
        const { redemption } = answer.value.viewer;
        // A redemption the server has: an attempt left over (a reload mid-request) is over.
        if (redemption) endAttempt(current.userId, designId);
        if (awaitingTap.current && redemption?.state === 'redeemed') {
          // The tap that was being confirmed has completed: say so where the tap was.
          awaitingTap.current = false;
          setRedeem({
            kind: 'done',
            result: { redemption, balanceAfter: answer.value.viewer.balance },
          });
        }
        setLoaded({ session: current, page: { kind: 'ready', view: answer.value } });
      } else if (answer.kind === 'unauthorized') {
        sessionEnded();
      } else {
        setLoaded({ session: current, page: { kind: answer.kind } });
      }
    },
    [designId, sessionEnded],
  );

  useEffect(() => {
    if (!session || designId === undefined) return undefined;
    const life = { gone: false };
    void designApi.view(session.token, designId).then((answer) => {
      if (!life.gone) apply(session, answer);
    });
    return () => {
      life.gone = true;
    };
  }, [designId, session, apply, reloads]);

  // A pending redemption (the platform has not answered yet): the design is asked for again
  // every POLL_MS until it completes, POLL_LIMIT times at most (a reload asks again).
  const loadedPage = loaded?.page;
  const pendingView =
    loadedPage?.kind === 'ready' && loadedPage.view.viewer.redemption?.state === 'pending';
  useEffect(() => {
    if (!pendingView || !session || designId === undefined) return undefined;
    let polls = 0;
    let gone = false;
    const timer = setInterval(() => {
      polls += 1;
      if (polls > POLL_LIMIT) {
        clearInterval(timer);
        return;
      }
      void designApi.view(session.token, designId).then((answer) => {
        // A poll that fails changes nothing: the next one asks again.
        if (!gone && answer.ok) apply(session, answer);
      });
    }, POLL_MS);
    return () => {
      gone = true;
      clearInterval(timer);
    };
  }, [pendingView, session, designId, apply]);

  // Logged out: what would be redeemed is shown with the log-in (issue 39), read without a token.
  const loggedOut = appPhase.kind === 'logged_out';
  const [preview, setPreview] = useState<Design | undefined>(undefined);
  useEffect(() => {
    if (!loggedOut || designId === undefined) return undefined;
    const life = { gone: false };
    void designApi.preview(designId).then((design) => {
      if (!life.gone) setPreview(design);
    });
    return () => {
      life.gone = true;
    };
  }, [loggedOut, designId]);

  let page: PagePhase;
  if (designId === undefined) page = { kind: 'invalid_id' };
  else if (appPhase.kind === 'connecting') page = { kind: 'loading' };
  else if (appPhase.kind === 'no_app') page = { kind: 'no_app' };
  else if (appPhase.kind === 'failed') page = { kind: 'failed' };
  else if (appPhase.kind === 'logged_out') {
    page = logInFailed
      ? { kind: 'failed' }
      : { kind: 'logged_out', ...(preview?.id === designId ? { design: preview } : {}) };
  } else page = loaded?.session === appPhase.session ? loaded.page : { kind: 'loading' };

  const retryLoad = useCallback(() => {
    setLogInFailed(false);
    if (session) {
      setLoaded(undefined);
      setReloads((n) => n + 1);
    } else {
      restart();
    }
  }, [restart, session]);

  const logIn = useCallback(() => {
    void appLogIn().then((outcome) => {
      // Gave up: still logged out. Logged in: the effect above shows the design.
      if (outcome === 'failed') setLogInFailed(true);
    });
  }, [appLogIn]);

  const confirmRedeem = useCallback(() => {
    const current = session;
    if (designId === undefined || !current || inFlight.current) return;
    inFlight.current = true;
    setRedeem({ kind: 'submitting' });
    void (async () => {
      const key = attemptKey(current.userId, designId);
      const answer = await designApi.redeem(current.token, designId, key);
      inFlight.current = false;
      if (answer.ok) {
        endAttempt(current.userId, designId);
        const pending = answer.value.redemption.state === 'pending';
        awaitingTap.current = pending;
        setLoaded((previous) =>
          previous?.page.kind === 'ready'
            ? {
                session: previous.session,
                page: {
                  kind: 'ready',
                  view: {
                    design: previous.page.view.design,
                    viewer: {
                      ...previous.page.view.viewer,
                      // Pending: the platform has not said the balance yet.
                      balance: answer.value.balanceAfter ?? previous.page.view.viewer.balance,
                      redemption: answer.value.redemption,
                    },
                  },
                },
              }
            : previous,
        );
        const { redemption, balanceAfter } = answer.value;
        // Pending: the panel says it is being confirmed (the view's redemption) until it is.
        setRedeem(
          balanceAfter === null
            ? { kind: 'idle' }
            : { kind: 'done', result: { redemption, balanceAfter } },
        );
        return;
      }
      switch (answer.kind) {
        case 'failed':
        case 'too_many_requests':
          // The outcome is unknown (or not yet tried): keep the key for the retry.
          setRedeem({ kind: 'retryable', reason: answer.kind });
          return;
        case 'unauthorized':
          setRedeem({ kind: 'idle' });
          sessionEnded();
          return;
        default:
          // A definite refusal: this attempt is over; the page shows why from fresh data.
          endAttempt(current.userId, designId);
          setRedeem({ kind: 'idle' });
          apply(current, await designApi.view(current.token, designId));
      }
    })();
  }, [designId, session, sessionEnded, apply]);

  const bridge = appPhase.kind === 'logged_in' ? appPhase.bridge : undefined;
  // The page is inside the app already: "open" is the app's own screen, through the bridge.
  const openRoute = useCallback(
    (route: string) => {
      if (!bridge) return;
      setOpenFailed(false);
      bridge.call('openAppRoute', { route }).catch(() => {
        setOpenFailed(true);
      });
    },
    [bridge],
  );
  const openInApp = useCallback(() => {
    if (designId !== undefined) openRoute(designAppRoute(designId));
  }, [designId, openRoute]);
  const openEarnPoints = useCallback(() => {
    openRoute(EARN_POINTS_APP_ROUTE);
  }, [openRoute]);
  const openDesigns = useCallback(() => {
    openRoute(DESIGNS_APP_ROUTE);
  }, [openRoute]);

  return {
    page,
    redeem,
    openFailed,
    retryLoad,
    logIn,
    askToRedeem: useCallback(() => {
      setRedeem({ kind: 'confirming' });
    }, []),
    cancelRedeem: useCallback(() => {
      setRedeem({ kind: 'idle' });
    }, []),
    confirmRedeem,
    openInApp,
    openEarnPoints,
    openDesigns,
  };
}
