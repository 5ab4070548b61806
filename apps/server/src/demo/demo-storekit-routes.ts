import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_STOREKIT_TRANSACTIONS_PATH,
  demoStoreKitRequestSchema,
  demoStoreKitResponseSchema,
  planChange,
} from '@guquan/contract/membership';
import { currentUser, requireUser } from '../auth/authenticate.ts';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { findPlan, transactionInForce } from '../membership/membership-repository.ts';
import { periodEnd } from '../membership/plan-period.ts';
import type { StoreKitSigner } from './storekit-signer.ts';

/**
 * The App Store's part in a simulated purchase: the bridge simulator asks here for a signed
 * transaction of a plan, as StoreKit would hand one to the app. Demo mode only (demo-mode.ts,
 * loaded by app.ts in demo mode): in production this path does not exist, and the test chain it
 * signs with is not trusted there.
 *
 * Like the App Store, it knows the subscription the user (standing in for their Apple ID) has in
 * the group: buying another plan while it is active changes that subscription's plan (contract
 * `planChange`), never starts a second one. The demo reads the subscription from the server's own
 * records, which in demo mode are the App Store's.
 */
export const demoStoreKitRoutes: FastifyPluginCallbackZod<{
  db: Db;
  auth: Authenticator;
  signer: StoreKitSigner;
}> = (app, { db, auth, signer }, done) => {
  app.post(
    apiRoute(DEMO_STOREKIT_TRANSACTIONS_PATH),
    {
      onRequest: requireUser(auth),
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        body: demoStoreKitRequestSchema,
        response: { 201: demoStoreKitResponseSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const { productId, appAccountToken } = request.body;
      const plan = await findPlan(db, productId);
      if (!plan) return sendApiError(reply, 404, 'not_found', 'There is no such product.');
      const now = Date.now();
      const current = await transactionInForce(db, currentUser(request).id, new Date(now));
      const currentPlan = current && (await findPlan(db, current.product_id));

      const renewalInfo = (originalTransactionId: string, renewsTo: string, renewalDate: number) =>
        signer.renewalInfo({
          originalTransactionId,
          autoRenewProductId: renewsTo,
          productId: current?.product_id ?? renewsTo,
          autoRenewStatus: 1,
          renewalDate,
        });
      const send = (
        change: 'new' | 'now' | 'renewal' | 'unchanged',
        signed: { signedTransaction: string; transactionId: string },
        signedRenewalInfo: string,
      ) =>
        reply
          .code(201)
          .header('cache-control', 'no-store')
          .send({ ...signed, signedRenewalInfo, change });

      if (!current || !currentPlan) {
        const signed = signer.transaction({
          productId: plan.productId,
          appAccountToken,
          purchaseDate: now,
          expiresDate: periodEnd(now, plan.period),
        });
        return send(
          'new',
          signed,
          renewalInfo(signed.transactionId, plan.productId, periodEnd(now, plan.period)),
        );
      }
      const original = current.original_transaction_id;
      const expires = Date.parse(current.expires_date);
      const change =
        current.product_id === plan.productId
          ? 'unchanged'
          : planChange(currentPlan, plan).startsAt;
      if (change === 'now') {
        // A new transaction of the same subscription, from now, for the new plan's period.
        const signed = signer.transaction({
          productId: plan.productId,
          appAccountToken,
          originalTransactionId: original,
          purchaseDate: now,
          expiresDate: periodEnd(now, plan.period),
        });
        return send(
          'now',
          signed,
          renewalInfo(original, plan.productId, periodEnd(now, plan.period)),
        );
      }
      // Nothing is billed now: StoreKit hands back the current transaction; the renewal info
      // says which plan the renewal bills (choosing the current plan again undoes a downgrade).
      const signed = signer.transaction({
        productId: current.product_id,
        appAccountToken,
        transactionId: current.transaction_id,
        originalTransactionId: original,
        purchaseDate: Date.parse(current.purchase_date),
        expiresDate: expires,
      });
      return send(change, signed, renewalInfo(original, plan.productId, expires));
    },
  );
  done();
};
