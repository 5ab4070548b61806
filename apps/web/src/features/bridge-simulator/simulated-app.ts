import {
  BRIDGE_PROTOCOL_VERSION,
  bridgeMethods,
  bridgeRequestSchema,
  type BridgeErrorCode,
  type BridgeEvent,
  type BridgeEventData,
  type BridgeMethod,
  type BridgeResult,
} from '@guquan/contract/bridge';
import type { Session } from '@guquan/contract/session';
import type { z } from 'zod';
import { DemoApiError, type DemoApi, type DemoLatestSms, type SignedPurchase } from './demo-api';
import { findSimulatedProduct } from './simulated-products';
import { authTimeOf } from './token-claims';
import type { SimulatorStore } from './simulator-state';
import type { TransactionKeeper } from './transaction-keeper';

/**
 * The app's side of the bridge, played in the browser: reads the page's requests as the app
 * would, answers them through the page's receiver (after the chosen delay, or never), and pushes
 * events. What each method does is written down in docs/bridge-protocol.md ("The simulator").
 */
export const PENDING_APPROVAL_MS = 3_000;

export interface SimulatedAppOptions {
  store: SimulatorStore;
  keeper: TransactionKeeper;
  api: DemoApi;
  /** Hands a message to the page as the app does: window.__goodsCircleBridge.receive(...). */
  deliver: (message: unknown) => void;
  now?: () => number;
  /** How long an Ask to Buy purchase waits before it is approved. */
  pendingApprovalMs?: number;
}

/** What the panel can do besides answering the page. */
export interface SimulatedApp {
  /** The page's message, as the app's message handler receives it. */
  receive: (message: unknown) => void;
  loadUsers: () => Promise<void>;
  /**
   * The tester picks a user: the answer to the page's waiting `login`, or, when the page waits
   * for none, a log-in in the app's own screen, after which the page is resumed and reads its
   * session again.
   */
  logIn: (userId: string) => Promise<void>;
  /** The app logs out; the page is resumed and reads its (absent) session again. */
  logOut: () => void;
  /**
   * The last SMS code the demo server "sent" to the logged-in user (null: none yet), read with
   * the user's token, refreshed as the app refreshes it. Throws with a message the panel shows.
   */
  latestSms: () => Promise<DemoLatestSms | null>;
  /** The tester declines the page's log-in request: login answers null. */
  declineLogin: () => void;
  dismissNotice: (id: number) => void;
  forgetTransactions: () => void;
}

/** A method that fails: becomes `{ ok: false, error: { code, message } }`. */
class AppFailure extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
  }
}

type Handlers = {
  [M in BridgeMethod]: (
    params: z.output<(typeof bridgeMethods)[M]['params']>,
  ) => Promise<BridgeResult<M>> | BridgeResult<M>;
};

export function createSimulatedApp(options: SimulatedAppOptions): SimulatedApp {
  const { store, keeper, api, deliver } = options;
  const now = options.now ?? Date.now;
  const pendingApprovalMs = options.pendingApprovalMs ?? PENDING_APPROVAL_MS;
  let loginWaiters: ((session: Session | null) => void)[] = [];
  /** The App Store sheets shown, by the id of their notice: dismissing one closes it. */
  const sheetWaiters = new Map<number, () => void>();

  /** As the app serializes: an object on iOS, a JSON string on Android. */
  const encode = (message: object) =>
    store.get().settings.platform === 'android' ? JSON.stringify(message) : message;

  const reply = (message: object) => {
    // Read when the answer is ready, so a tester can switch dropping on while a call waits.
    const { dropReplies, delayMs } = store.get().settings;
    if (dropReplies) return;
    setTimeout(() => {
      deliver(encode(message));
    }, delayMs);
  };

  const emit = <E extends BridgeEvent>(event: E, data: BridgeEventData<E>) => {
    setTimeout(() => {
      deliver(encode({ event, data }));
    }, 0);
  };

  const refreshCount = () => {
    store.update({ unfinishedCount: keeper.unfinished().length });
  };

  /** The stored session unless it has expired (the app would then be logged out). */
  const currentSession = (): Session | null => {
    const { session } = store.get();
    if (session && Date.parse(session.expiresAt) <= now()) {
      store.update({ session: null });
      return null;
    }
    return session;
  };

  const asBridgeSession = (session: Session | null) =>
    session ? { token: session.token, userId: session.userId } : null;

  /**
   * As the app does when a page asks for its token: a refreshed one from the platform, for the
   * same log-in (its auth_time), issued now. A page whose token a confirmed deletion ended goes
   * on with it. If the refresh fails, the token it has.
   */
  const refreshedSession = async (): Promise<Session | null> => {
    const current = currentSession();
    if (!current) return null;
    try {
      const fresh = await api.logIn(current.userId, authTimeOf(current.token));
      // Logged out or in as someone else meanwhile: that stands.
      if (store.get().session !== current) return currentSession();
      store.update({ session: fresh });
      return fresh;
    } catch {
      return current;
    }
  };

  const settleLogin = (session: Session | null) => {
    const waiters = loginWaiters;
    loginWaiters = [];
    store.update({ loginRequested: false });
    for (const resolve of waiters) resolve(session);
  };

  const loadUsers = async () => {
    store.update({ usersStatus: 'loading' });
    try {
      store.update({ users: await api.users(), usersStatus: 'ready' });
    } catch (error) {
      store.update({ usersStatus: 'error', problem: messageOf(error) });
    }
  };

  const logInAs = async (userId: string): Promise<Session> => {
    const session = await api.logIn(userId);
    store.update({ session, problem: null });
    return session;
  };

  const signPurchase = async (
    productId: string,
    appAccountToken: string,
  ): Promise<SignedPurchase> => {
    const session = currentSession();
    if (!session) {
      throw new AppFailure('failed', 'Nobody is logged in to the simulator: pick a demo user.');
    }
    try {
      const signed = await api.signPurchase(session.token, { productId, appAccountToken });
      keeper.add({
        transactionId: signed.transactionId,
        signedTransaction: signed.signedTransaction,
        productId,
      });
      refreshCount();
      return signed;
    } catch (error) {
      throw new AppFailure('failed', messageOf(error));
    }
  };

  const handlers: Handlers = {
    handshake: () => ({
      bridgeVersion: BRIDGE_PROTOCOL_VERSION,
      platform: store.get().settings.platform,
      appVersion: 'simulator',
    }),
    getSession: async () => asBridgeSession(await refreshedSession()),
    login: async () => {
      const current = currentSession();
      if (current) return asBridgeSession(current);
      if (store.get().settings.autoLogin) {
        if (store.get().usersStatus !== 'ready') await loadUsers();
        const first = store.get().users[0];
        if (!first) throw new AppFailure('failed', 'The demo server has no users.');
        try {
          return asBridgeSession(await logInAs(first.id));
        } catch (error) {
          throw new AppFailure('failed', messageOf(error));
        }
      }
      // The app would show its log-in screen: the panel asks the tester to pick a user.
      store.update({ open: true, loginRequested: true });
      if (store.get().usersStatus === 'idle') void loadUsers();
      return asBridgeSession(
        await new Promise<Session | null>((resolve) => loginWaiters.push(resolve)),
      );
    },
    close: () => {
      store.notify('The app would close this page now.');
      return {};
    },
    openAppRoute: ({ route }) => {
      store.notify(`The app would open its screen “${route}” on top of this page.`, {
        resumesPage: true,
      });
      return {};
    },
    storeKitProducts: ({ productIds }) => ({
      // As StoreKit, ids the App Store does not know are left out rather than failing.
      products: productIds.flatMap((id) => findSimulatedProduct(id) ?? []),
    }),
    storeKitPurchase: async ({ productId, appAccountToken }) => {
      if (!findSimulatedProduct(productId)) {
        throw new AppFailure('failed', `The App Store has no product ${productId}.`);
      }
      switch (store.get().settings.purchaseOutcome) {
        case 'cancel':
          return { state: 'cancelled' };
        case 'fail':
          throw new AppFailure('failed', 'The purchase failed (simulated App Store error).');
        case 'pending':
          setTimeout(() => {
            signPurchase(productId, appAccountToken).then(
              ({ signedTransaction }) => {
                emit('transactionUpdated', { signedTransaction });
              },
              (error: unknown) => {
                store.notify(`The pending purchase could not be approved: ${messageOf(error)}`);
              },
            );
          }, pendingApprovalMs);
          return { state: 'pending' };
        case 'approve': {
          // A plan change within the group too: the App Store decides what it is (the demo
          // server plays it), and the renewal info says which plan renews.
          const { signedTransaction, signedRenewalInfo } = await signPurchase(
            productId,
            appAccountToken,
          );
          return { state: 'purchased', signedTransaction, signedRenewalInfo };
        }
      }
    },
    // The sheet stays open until the tester dismisses its notice ("Back to the page").
    storeKitManageSubscriptions: () => {
      const id = store.notify(
        'The App Store’s subscription management would open here: change the plan or cancel it.',
        { resumesPage: true },
      );
      return new Promise<Record<string, never>>((resolve) => {
        sheetWaiters.set(id, () => {
          resolve({});
        });
      });
    },
    storeKitRestore: () => ({
      signedTransactions: keeper.all().map((transaction) => transaction.signedTransaction),
    }),
    storeKitUnfinished: () => ({
      signedTransactions: keeper.unfinished().map((transaction) => transaction.signedTransaction),
    }),
    storeKitFinish: ({ transactionId }) => {
      keeper.finish(transactionId);
      refreshCount();
      return {};
    },
    accountDeleted: ({ deletesAt }) => {
      // The app logs out when the user leaves the page: until then the page can still show the
      // date and let them cancel.
      store.notify(
        `The app would log out when you leave this page: the account is deleted on ${deletesAt}.`,
      );
      return {};
    },
  };

  const answer = async (id: string, method: string, rawParams: unknown) => {
    try {
      if (!Object.hasOwn(handlers, method)) {
        throw new AppFailure('unsupported_method', `This app does not know ${method}.`);
      }
      const known = method as BridgeMethod;
      const params = bridgeMethods[known].params.safeParse(rawParams);
      if (!params.success) {
        throw new AppFailure('failed', `Invalid params for ${method}: ${params.error.message}`);
      }
      const handler = handlers[known] as (params: unknown) => unknown;
      reply({ id, ok: true, result: await handler(params.data) });
    } catch (error) {
      const code = error instanceof AppFailure ? error.code : 'failed';
      reply({ id, ok: false, error: { code, message: messageOf(error).slice(0, 500) } });
    }
  };

  refreshCount();

  return {
    receive(message) {
      const request = bridgeRequestSchema.safeParse(message);
      if (request.success) {
        void answer(request.data.id, request.data.method, request.data.params);
        return;
      }
      const { id, v } = (typeof message === 'object' && message !== null ? message : {}) as {
        id?: unknown;
        v?: unknown;
      };
      // Without an id there is nobody to answer; the page's call times out.
      if (typeof id !== 'string') return;
      reply({
        id,
        ok: false,
        error:
          v === BRIDGE_PROTOCOL_VERSION
            ? { code: 'failed', message: 'Malformed bridge message.' }
            : {
                code: 'unsupported_method',
                message: `This app speaks bridge version ${BRIDGE_PROTOCOL_VERSION}.`,
              },
      });
    },
    loadUsers,
    async logIn(userId) {
      const pageWaits = loginWaiters.length > 0;
      try {
        settleLogin(await logInAs(userId));
      } catch (error) {
        store.update({ problem: messageOf(error) });
        return;
      }
      // The app's log-in screen closes over a page that asked for nothing: it is back in view.
      if (!pageWaits) emit('resumed', {});
    },
    logOut() {
      // The app logs out with the platform: the site keeps no session to end.
      store.update({ session: null });
      emit('resumed', {});
    },
    async latestSms() {
      const session = await refreshedSession();
      if (!session) throw new DemoApiError('Nobody is logged in: pick a demo user.');
      return api.latestSms(session.token);
    },
    declineLogin() {
      settleLogin(null);
    },
    dismissNotice(id) {
      const notice = store.get().notices.find((item) => item.id === id);
      store.dismissNotice(id);
      sheetWaiters.get(id)?.();
      sheetWaiters.delete(id);
      if (notice?.resumesPage) emit('resumed', {});
    },
    forgetTransactions() {
      keeper.clear();
      refreshCount();
    },
  };
}

function messageOf(error: unknown): string {
  if (error instanceof AppFailure || error instanceof DemoApiError) return error.message;
  return error instanceof Error ? error.message : String(error);
}
