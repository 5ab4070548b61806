import { z } from 'zod';
import { publicIdSchema } from './share.ts';
import { sessionTokenSchema } from './session.ts';

/**
 * The native bridge between in-app pages and the 谷圈 app (PRODUCT.md "The native bridge";
 * written down for the app teams in docs/bridge-protocol.md). The page posts
 * `{ v, id, method, params }`: on iOS to window.webkit.messageHandlers.goodsCircle, on Android to
 * window.GoodsCircleAndroid.postMessage (as a JSON string). The app answers by calling
 * window.__goodsCircleBridge.receive(message) with `{ id, ok: true, result }` or
 * `{ id, ok: false, error: { code, message } }`, and pushes events as `{ event, data }`.
 */
export const BRIDGE_PROTOCOL_VERSION = 1;
export const IOS_HANDLER_NAME = 'goodsCircle';
export const ANDROID_INTERFACE_NAME = 'GoodsCircleAndroid';
export const RECEIVER_GLOBAL = '__goodsCircleBridge';

export const bridgePlatformSchema = z.enum(['ios', 'android']);
export type BridgePlatform = z.infer<typeof bridgePlatformSchema>;

const empty = z.object({}).strict();

/** A StoreKit 2 signed transaction (JWS compact serialization) as the app passes it on. */
export const signedTransactionSchema = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

export const storeProductSchema = z.object({
  id: z.string().min(1).max(100),
  displayName: z.string(),
  /** The App Store's own localized price text, e.g. ¥25.00: shown as it is. */
  displayPrice: z.string(),
  /**
   * The same price as a number (StoreKit's `Product.price`) and its ISO 4217 currency
   * (`priceFormatStyle.currencyCode`): what a plan costs per month is worked out from these.
   * Optional: an app that sends neither shows no per-month price.
   */
  price: z.number().nonnegative().optional(),
  currencyCode: z
    .string()
    .regex(/^[A-Z]{3}$/)
    .optional(),
});
export type StoreProduct = z.infer<typeof storeProductSchema>;

/** Every method: its params and its result. */
export const bridgeMethods = {
  /** The app's bridge version and platform; the first call a page makes. */
  handshake: {
    params: empty,
    result: z.object({
      bridgeVersion: z.number().int().positive(),
      platform: bridgePlatformSchema,
      appVersion: z.string().max(40),
    }),
  },
  /** The logged-in user's session, or null when nobody is logged in. */
  getSession: {
    params: empty,
    result: z.object({ token: sessionTokenSchema, userId: publicIdSchema }).nullable(),
  },
  /** Shows the app's log-in; resolves with the new session, or null if the user gave up. */
  login: {
    params: empty,
    result: z.object({ token: sessionTokenSchema, userId: publicIdSchema }).nullable(),
  },
  /** Closes this web page. */
  close: { params: empty, result: empty },
  /** Opens a screen of the app, e.g. `design/<id>`, `goods/<id>`, `membership`. */
  openAppRoute: {
    params: z
      .object({
        route: z
          .string()
          .min(1)
          .max(200)
          .regex(/^[a-z]+(\/[\w-]+)*$/),
      })
      .strict(),
    result: empty,
  },
  /** StoreKit products with their localized prices (those the App Store knows). */
  storeKitProducts: {
    params: z.object({ productIds: z.array(z.string().min(1).max(100)).min(1).max(20) }).strict(),
    result: z.object({ products: z.array(storeProductSchema) }),
  },
  /**
   * Buys a product. `appAccountToken` (a UUID the server gives per user) ties the transaction to
   * the user. The app keeps the transaction unfinished until the page calls storeKitFinish.
   */
  storeKitPurchase: {
    params: z.object({ productId: z.string().min(1).max(100), appAccountToken: z.uuid() }).strict(),
    result: z.discriminatedUnion('state', [
      z.object({
        state: z.literal('purchased'),
        signedTransaction: signedTransactionSchema,
        /**
         * The subscription's renewal info after the purchase (StoreKit's
         * `Product.SubscriptionInfo.Status.renewalInfo`, its JWS): which plan the next renewal
         * bills. A downgrade returns the current transaction and this.
         */
        signedRenewalInfo: signedTransactionSchema.optional(),
      }),
      z.object({ state: z.literal('cancelled') }),
      /** Waiting for approval (Ask to Buy): the transaction comes later as an event. */
      z.object({ state: z.literal('pending') }),
    ]),
  },
  /**
   * The App Store's own subscription management (StoreKit `AppStore.showManageSubscriptions`),
   * where the user changes or cancels their plan; resolves when the sheet closes.
   */
  storeKitManageSubscriptions: { params: empty, result: empty },
  /** AppStore.sync(): the user's current entitlements, signed. Only on a tap (asks to sign in). */
  storeKitRestore: {
    params: empty,
    result: z.object({ signedTransactions: z.array(signedTransactionSchema) }),
  },
  /** Transactions the app holds unfinished (the server may not have them yet). */
  storeKitUnfinished: {
    params: empty,
    result: z.object({ signedTransactions: z.array(signedTransactionSchema) }),
  },
  /** Finishes a transaction: only after the server has confirmed it. */
  storeKitFinish: {
    params: z.object({ transactionId: z.string().min(1).max(64) }).strict(),
    result: empty,
  },
  /** The account is scheduled for deletion: the app logs out and leaves the page. */
  accountDeleted: {
    params: z.object({ deletesAt: z.iso.datetime({ offset: true }) }).strict(),
    result: empty,
  },
} as const;

export type BridgeMethod = keyof typeof bridgeMethods;
export type BridgeParams<M extends BridgeMethod> = z.input<(typeof bridgeMethods)[M]['params']>;
export type BridgeResult<M extends BridgeMethod> = z.output<(typeof bridgeMethods)[M]['result']>;

/** Events the app pushes. */
export const bridgeEvents = {
  /** A transaction finished outside a purchase call (renewal, Ask to Buy approved). */
  transactionUpdated: z.object({ signedTransaction: signedTransactionSchema }),
  /** The page became visible again (the user came back from another screen). */
  resumed: empty,
} as const;
export type BridgeEvent = keyof typeof bridgeEvents;
export type BridgeEventData<E extends BridgeEvent> = z.output<(typeof bridgeEvents)[E]>;

export const bridgeRequestSchema = z.object({
  v: z.literal(BRIDGE_PROTOCOL_VERSION),
  id: z.string().min(1).max(64),
  method: z.string().min(1).max(64),
  params: z.record(z.string(), z.unknown()),
});
export type BridgeRequest = z.infer<typeof bridgeRequestSchema>;

export const BRIDGE_ERROR_CODES = [
  /** No app around this page (an ordinary browser). */
  'unavailable',
  /** The app's bridge does not know the method (an older app). */
  'unsupported_method',
  /** No answer within the call's time. */
  'timeout',
  /** The user cancelled in the app. */
  'cancelled',
  /** The app tried and failed; the message says why. */
  'failed',
  /** The app's answer does not match the protocol. */
  'bad_reply',
] as const;
export type BridgeErrorCode = (typeof BRIDGE_ERROR_CODES)[number];

export const bridgeErrorSchema = z.object({
  code: z.string().max(64),
  message: z.string().max(500),
});

export const bridgeIncomingSchema = z.union([
  z.object({ id: z.string(), ok: z.literal(true), result: z.unknown() }),
  z.object({ id: z.string(), ok: z.literal(false), error: bridgeErrorSchema }),
  z.object({ event: z.string().max(64), data: z.unknown() }),
]);
export type BridgeIncoming = z.infer<typeof bridgeIncomingSchema>;
