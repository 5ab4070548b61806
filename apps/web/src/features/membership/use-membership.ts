import { useCallback, useEffect, useState } from 'react';
import type { StoreProduct } from '@guquan/contract/bridge';
import type { Membership, MembershipResponse } from '@guquan/contract/membership';
import { formatDate } from '../../lib/format/dates';
import { useLanguage } from '../../lib/i18n/language-context';
import { useAppSession, type AppSession } from '../../lib/in-app/use-app-session';
import { membershipTexts } from './membership-texts';
import { forgetAwaitingApproval } from './awaiting-approval';
import { membershipApi } from './membership-api';
import { createMembershipFlow, type MembershipFlow } from './purchase-flow';

/** Where the page is: nothing user-specific exists before the browser has the app's session. */
export type MembershipPhase =
  | { name: 'connecting' }
  | { name: 'no-app'; platform: 'browser' | 'android' }
  | { name: 'signed-out' }
  | { name: 'load-failed' }
  | {
      name: 'ready';
      platform: 'ios' | 'android';
      data: MembershipResponse;
      flow: MembershipFlow;
      products: ReadonlyMap<string, StoreProduct>;
    };

export interface MembershipCentre {
  phase: MembershipPhase;
  /** News of the membership that the member's view says at its top (and moves focus to). */
  announcement: string | undefined;
  retry: () => void;
  logIn: () => void;
  /** The membership changed; with an announcement when the user should be told. */
  setMembership: (membership: Membership, announcement?: string) => void;
}

type Loaded = { session: AppSession } & (
  | { phase: Extract<MembershipPhase, { name: 'ready' }> }
  | { phase: { name: 'signed-out' } | { name: 'load-failed' } }
);

/**
 * The membership centre's start-up: the session from the app, then the status, the App Store's
 * prices and the purchases the app still holds unfinished.
 */
export function useMembership(): MembershipCentre {
  const app = useAppSession({ handshake: true });
  const appPhase = app.phase;
  const [loaded, setLoaded] = useState<Loaded | undefined>(undefined);
  const [announcement, setAnnouncement] = useState<string | undefined>(undefined);
  const language = useLanguage();
  const approvedText = useCallback(
    (membership: Membership) =>
      membershipTexts(language).approved(
        formatDate(membership.expiresAt ?? new Date().toISOString(), language),
      ),
    [language],
  );
  const successText = useCallback(
    (membership: Membership) =>
      membershipTexts(language).success(
        formatDate(membership.expiresAt ?? new Date().toISOString(), language),
      ),
    [language],
  );

  const setMembership = useCallback((membership: Membership, news?: string) => {
    // An approved purchase (or any active membership) ends the wait for approval.
    if (membership.status === 'active') forgetAwaitingApproval();
    setAnnouncement(news);
    setLoaded((current) =>
      current?.phase.name === 'ready'
        ? {
            ...current,
            phase: { ...current.phase, data: { ...current.phase.data, membership } },
          }
        : current,
    );
  }, []);

  useEffect(() => {
    if (appPhase.kind !== 'logged_in') return undefined;
    const { bridge, session } = appPhase;
    const platform = appPhase.platform === 'ios' ? 'ios' : 'android';
    // Set when the page unmounts or starts over: late answers then change nothing.
    const life = { gone: false };
    const gone = () => life.gone;
    let unsubscribe: (() => void) | undefined;
    void (async () => {
      const result = await membershipApi.overview(session.token);
      if (gone()) return;
      if (!result.ok) {
        setLoaded({
          session,
          phase: { name: result.kind === 'unauthorized' ? 'signed-out' : 'load-failed' },
        });
        return;
      }
      const data = result.value;
      if (data.membership.status === 'active') forgetAwaitingApproval();
      const flow = createMembershipFlow(bridge, session.token);
      let products = new Map<string, StoreProduct>();
      if (platform === 'ios') {
        const known = await bridge
          .call('storeKitProducts', { productIds: data.plans.map((plan) => plan.productId) })
          .catch(() => ({ products: [] }));
        products = new Map(known.products.map((product) => [product.id, product]));
      }
      if (gone()) return;
      setLoaded({ session, phase: { name: 'ready', platform, data, flow, products } });
      if (platform !== 'ios') return;
      // A purchase that never reached the server (network, a closed page) is completed now.
      // An Ask to Buy approval (or a renewal) arrives: the page says so instead of "waiting".
      unsubscribe = bridge.on('transactionUpdated', ({ signedTransaction }) => {
        void flow.submit(signedTransaction).then((outcome) => {
          if (!gone() && outcome.state === 'confirmed') {
            setMembership(outcome.membership, approvedText(outcome.membership));
          }
        });
      });
      const synced = await flow.syncUnfinished();
      if (!gone() && synced) setMembership(synced, successText(synced));
    })();
    return () => {
      life.gone = true;
      unsubscribe?.();
    };
  }, [appPhase, setMembership, approvedText, successText]);

  return {
    phase: membershipPhase(appPhase, loaded),
    announcement,
    retry: app.restart,
    logIn: () => {
      void app.logIn();
    },
    setMembership,
  };
}

function membershipPhase(
  appPhase: ReturnType<typeof useAppSession>['phase'],
  loaded: Loaded | undefined,
): MembershipPhase {
  switch (appPhase.kind) {
    case 'connecting':
      return { name: 'connecting' };
    case 'no_app':
      return { name: 'no-app', platform: 'browser' };
    case 'failed':
      // No handshake: not the app (or one too old to talk to). No session: as if logged out.
      if (appPhase.step === 'connect') return { name: 'load-failed' };
      if (appPhase.step !== 'session') return { name: 'no-app', platform: 'browser' };
      return appPhase.platform === 'ios'
        ? { name: 'signed-out' }
        : { name: 'no-app', platform: 'android' };
    case 'logged_out':
      return appPhase.platform === 'ios'
        ? { name: 'signed-out' }
        : { name: 'no-app', platform: 'android' };
    case 'logged_in':
      return loaded?.session === appPhase.session ? loaded.phase : { name: 'connecting' };
  }
}
