import { createPrivateKey, randomInt, randomUUID, sign, X509Certificate } from 'node:crypto';
import type { AppStoreConfig } from '../config/env.ts';
import type { CertificateChain } from './test-chain.ts';

/**
 * Signs StoreKit data the way the App Store does: a compact JWS, ES256, with the certificate
 * chain (leaf, intermediate, root) in its `x5c` header. With the TEST chain it stands in for the
 * App Store in demo mode (the simulator's purchases) and in tests; nothing it signs can pass a
 * production server, which trusts only Apple's roots.
 */
export interface StoreKitSigner {
  sign(payload: object): string;
  transaction(fields: DemoTransactionFields): SignedDemoTransaction;
  renewalInfo(fields: Record<string, unknown>): string;
  notification(fields: DemoNotificationFields): string;
}

export interface DemoTransactionFields {
  productId: string;
  appAccountToken?: string;
  /** When the paid period ends (ms since the epoch). */
  expiresDate: number;
  purchaseDate?: number;
  transactionId?: string;
  originalTransactionId?: string;
  /** Anything else to set or override (bundleId, environment, revocationDate…). */
  extra?: Record<string, unknown>;
}

export interface SignedDemoTransaction {
  signedTransaction: string;
  transactionId: string;
  payload: Record<string, unknown>;
}

export interface DemoNotificationFields {
  notificationType: string;
  subtype?: string;
  notificationUUID?: string;
  signedTransactionInfo?: string;
  signedRenewalInfo?: string;
  /** Overrides in `data` (bundleId, environment…). */
  data?: Record<string, unknown>;
}

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** A transaction id in the App Store's style: a long decimal number. */
export function newDemoTransactionId(): string {
  return `2000000${String(randomInt(100_000_000, 999_999_999))}`;
}

export function createStoreKitSigner(
  chain: CertificateChain,
  appStore: Pick<AppStoreConfig, 'bundleId' | 'environment' | 'appAppleId'>,
  now: () => number = Date.now,
): StoreKitSigner {
  const key = createPrivateKey(chain.leafKey);
  const x5c = [chain.leaf, chain.intermediate, chain.root].map((pem) =>
    new X509Certificate(pem).raw.toString('base64'),
  );

  const signPayload = (payload: object): string => {
    const header = base64url(JSON.stringify({ alg: 'ES256', x5c }));
    const body = base64url(JSON.stringify(payload));
    const signature = sign('sha256', Buffer.from(`${header}.${body}`), {
      key,
      dsaEncoding: 'ieee-p1363',
    });
    return `${header}.${body}.${base64url(signature)}`;
  };

  return {
    sign: signPayload,

    transaction(fields) {
      const signedDate = now();
      const purchaseDate = fields.purchaseDate ?? signedDate;
      const transactionId = fields.transactionId ?? newDemoTransactionId();
      const payload: Record<string, unknown> = {
        transactionId,
        originalTransactionId: fields.originalTransactionId ?? transactionId,
        webOrderLineItemId: newDemoTransactionId(),
        bundleId: appStore.bundleId,
        productId: fields.productId,
        subscriptionGroupIdentifier: '21000001',
        purchaseDate,
        originalPurchaseDate: purchaseDate,
        expiresDate: fields.expiresDate,
        quantity: 1,
        type: 'Auto-Renewable Subscription',
        inAppOwnershipType: 'PURCHASED',
        signedDate,
        environment: appStore.environment,
        transactionReason: 'PURCHASE',
        storefront: 'CHN',
        storefrontId: '143465',
        currency: 'CNY',
        appAccountToken: fields.appAccountToken,
        ...fields.extra,
      };
      return { signedTransaction: signPayload(payload), transactionId, payload };
    },

    renewalInfo(fields) {
      return signPayload({ signedDate: now(), environment: appStore.environment, ...fields });
    },

    notification(fields) {
      return signPayload({
        notificationType: fields.notificationType,
        subtype: fields.subtype,
        notificationUUID: fields.notificationUUID ?? randomUUID(),
        version: '2.0',
        signedDate: now(),
        data: {
          bundleId: appStore.bundleId,
          environment: appStore.environment,
          appAppleId: appStore.appAppleId,
          signedTransactionInfo: fields.signedTransactionInfo,
          signedRenewalInfo: fields.signedRenewalInfo,
          ...fields.data,
        },
      });
    },
  };
}
