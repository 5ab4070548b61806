import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_STOREKIT_TRANSACTIONS_PATH,
  demoStoreKitRequestSchema,
  demoStoreKitResponseSchema,
} from '@guquan/contract/membership';
import { requireUser } from '../auth/authenticate.ts';
import type { SessionRepository } from '../auth/session-repository.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { findPlan } from '../membership/membership-repository.ts';
import { periodEnd } from '../membership/plan-period.ts';
import type { StoreKitSigner } from './storekit-signer.ts';

/**
 * The App Store's part in a simulated purchase: the bridge simulator asks here for a signed
 * transaction of a plan, as StoreKit would hand one to the app. Demo mode only (demo-mode.ts, loaded by app.ts in demo mode): in
 * production this path does not exist, and the test chain it signs with is not trusted there.
 */
export const demoStoreKitRoutes: FastifyPluginCallbackZod<{
  db: Db;
  sessions: SessionRepository;
  signer: StoreKitSigner;
}> = (app, { db, sessions, signer }, done) => {
  app.post(
    apiRoute(DEMO_STOREKIT_TRANSACTIONS_PATH),
    {
      onRequest: requireUser(sessions),
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        body: demoStoreKitRequestSchema,
        response: { 201: demoStoreKitResponseSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const plan = await findPlan(db, request.body.productId);
      if (!plan) return sendApiError(reply, 404, 'not_found', 'There is no such product.');
      const purchaseDate = Date.now();
      const { signedTransaction, transactionId } = signer.transaction({
        productId: plan.productId,
        appAccountToken: request.body.appAccountToken,
        purchaseDate,
        expiresDate: periodEnd(purchaseDate, plan.period),
      });
      return reply
        .code(201)
        .header('cache-control', 'no-store')
        .send({ signedTransaction, transactionId });
    },
  );
  done();
};
