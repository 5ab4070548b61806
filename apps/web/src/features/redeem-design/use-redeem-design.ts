import { useCallback, useEffect, useRef, useState } from 'react';
import type { DesignView, RedemptionResult } from '@guquan/contract/design';
import { designAppRoute } from '@guquan/contract/design';
import { connectBridge } from '../../lib/bridge/connect-bridge';
import type { Bridge } from '../../lib/bridge/native-bridge';
import { attemptKey, endAttempt } from './attempt-key';
import { fetchDesignView, postRedemption } from './design-api';

interface Session {
  token: string;
  userId: string;
}

/** Where the page is. Nothing here is known on the server: it renders `loading`. */
export type PagePhase =
  | { kind: 'loading' }
  | { kind: 'invalid_id' }
  | { kind: 'no_app' }
  | { kind: 'logged_out' }
  | { kind: 'not_found' }
  | { kind: 'failed' }
  | { kind: 'ready'; view: DesignView };

/** The redemption on a ready page. */
export type RedeemPhase =
  | { kind: 'idle' }
  | { kind: 'confirming' }
  | { kind: 'submitting' }
  | { kind: 'retryable'; reason: 'failed' | 'too_many_requests' }
  | { kind: 'done'; result: RedemptionResult };

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
}

/**
 * The redeem page's logic: the bridge gives the session, the API the design and the redemption.
 * Runs in the browser only (effects), so the server's HTML is the skeleton.
 */
export function useRedeemDesign(designId: string | undefined): RedeemDesign {
  const [page, setPage] = useState<PagePhase>(
    designId === undefined ? { kind: 'invalid_id' } : { kind: 'loading' },
  );
  const [redeem, setRedeem] = useState<RedeemPhase>({ kind: 'idle' });
  const [openFailed, setOpenFailed] = useState(false);
  const bridge = useRef<Bridge | undefined>(undefined);
  const session = useRef<Session | undefined>(undefined);
  const inFlight = useRef(false);

  const show = useCallback(
    async (current: Session): Promise<void> => {
      if (designId === undefined) return;
      const answer = await fetchDesignView(designId, current.token);
      if (answer.state === 'ok') {
        // A redemption the server has: an attempt left over (a reload mid-request) is over.
        if (answer.view.viewer.redemption) endAttempt(current.userId, designId);
        setPage({ kind: 'ready', view: answer.view });
      } else if (answer.state === 'unauthorized') {
        session.current = undefined;
        setPage({ kind: 'logged_out' });
      } else {
        setPage({ kind: answer.state });
      }
    },
    [designId],
  );

  const load = useCallback(
    async (connected: Bridge): Promise<void> => {
      if (designId === undefined) return;
      bridge.current = connected;
      try {
        if (connected.transport() === 'none') {
          setPage({ kind: 'no_app' });
          return;
        }
        await connected.call('handshake', {});
        const current = await connected.call('getSession', {});
        session.current = current ?? undefined;
        if (!current) {
          setPage({ kind: 'logged_out' });
          return;
        }
        await show(current);
      } catch {
        setPage({ kind: 'failed' });
      }
    },
    [designId, show],
  );

  useEffect(() => {
    // The bridge and the token exist in the browser only: the page starts from there.
    connectBridge().then(load, () => {
      setPage({ kind: 'failed' });
    });
  }, [load]);

  const retryLoad = useCallback(() => {
    setPage({ kind: 'loading' });
    void (session.current ? show(session.current) : connectBridge().then(load));
  }, [load, show]);

  const logIn = useCallback(() => {
    const connected = bridge.current;
    if (!connected) return;
    void (async () => {
      try {
        const current = await connected.call('login', {});
        if (!current) return; // the user gave up: still logged out
        session.current = current;
        setPage({ kind: 'loading' });
        await show(current);
      } catch {
        setPage({ kind: 'failed' });
      }
    })();
  }, [show]);

  const confirmRedeem = useCallback(() => {
    const current = session.current;
    if (designId === undefined || !current || inFlight.current) return;
    inFlight.current = true;
    setRedeem({ kind: 'submitting' });
    void (async () => {
      const key = attemptKey(current.userId, designId);
      const answer = await postRedemption(designId, current.token, key);
      inFlight.current = false;
      switch (answer.state) {
        case 'redeemed':
          endAttempt(current.userId, designId);
          setPage((previous) =>
            previous.kind === 'ready'
              ? {
                  kind: 'ready',
                  view: {
                    design: previous.view.design,
                    viewer: {
                      balance: answer.result.balanceAfter,
                      redemption: answer.result.redemption,
                    },
                  },
                }
              : previous,
          );
          setRedeem({ kind: 'done', result: answer.result });
          return;
        case 'failed':
        case 'too_many_requests':
          // The outcome is unknown (or not yet tried): keep the key for the retry.
          setRedeem({ kind: 'retryable', reason: answer.state });
          return;
        case 'unauthorized':
          session.current = undefined;
          setRedeem({ kind: 'idle' });
          setPage({ kind: 'logged_out' });
          return;
        default:
          // A definite refusal: this attempt is over; the page shows why from fresh data.
          endAttempt(current.userId, designId);
          setRedeem({ kind: 'idle' });
          await show(current).catch(() => {
            setPage({ kind: 'failed' });
          });
      }
    })();
  }, [designId, show]);

  const openInApp = useCallback(() => {
    const connected = bridge.current;
    if (!connected || designId === undefined) return;
    setOpenFailed(false);
    connected.call('openAppRoute', { route: designAppRoute(designId) }).catch(() => {
      setOpenFailed(true);
    });
  }, [designId]);

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
  };
}
