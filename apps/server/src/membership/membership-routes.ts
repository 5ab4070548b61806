import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  APP_STORE_NOTIFICATIONS_PATH,
  appStoreNotificationRequestSchema,
  MEMBERSHIP_PATH,
  MEMBERSHIP_RESTORE_PATH,
  MEMBERSHIP_TRANSACTIONS_PATH,
  membershipResponseSchema,
  restoreRequestSchema,
  restoreResponseSchema,
  submitTransactionRequestSchema,
  submitTransactionResponseSchema,
} from '@guquan/contract/membership';
import { currentUser, requireUser } from '../auth/authenticate.ts';
import type { Authenticator } from '../auth/user-authenticator.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import {
  NotificationRejected,
  TransactionRejected,
  type MembershipService,
} from './membership-service.ts';

const MESSAGES: Record<TransactionRejected['code'], string> = {
  invalid_transaction: 'The purchase could not be verified with the App Store.',
  wrong_bundle: 'The purchase was made in another app.',
  wrong_environment: 'The purchase was made in another App Store environment.',
  wrong_account: 'The purchase belongs to another account.',
  revoked: 'The App Store has refunded or revoked this purchase.',
  unknown_product: 'The purchase is not a membership plan.',
  already_subscribed:
    'The membership is already active: a second subscription does not extend it. Change the plan instead.',
  verification_unavailable: 'The purchase cannot be verified right now. Please try again later.',
};

/** Purchases are limited per user (not per address: many users share a carrier's address). */
function perUser(max: number) {
  return {
    rateLimit: {
      max,
      timeWindow: '1 minute',
      hook: 'preHandler' as const,
      keyGenerator: (request: FastifyRequest) =>
        `membership:${String(request.user?.id ?? request.ip)}`,
    },
  };
}

const errors = {
  400: apiErrorSchema,
  401: apiErrorSchema,
  403: apiErrorSchema,
  409: apiErrorSchema,
  503: apiErrorSchema,
};

/**
 * iOS membership: the user's status and plans, verifying StoreKit purchases and restores, and the
 * App Store's server notifications. Authentication runs first (onRequest), before the body is
 * even parsed, so a stranger learns nothing from validation errors.
 */
export const membershipRoutes: FastifyPluginCallbackZod<{
  auth: Authenticator;
  membership: MembershipService;
}> = (app, { auth, membership }, done) => {
  const authenticated = requireUser(auth);

  app.get(
    apiRoute(MEMBERSHIP_PATH),
    {
      onRequest: authenticated,
      schema: { response: { 200: membershipResponseSchema, 401: apiErrorSchema } },
    },
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await membership.overview(currentUser(request))),
  );

  app.post(
    apiRoute(MEMBERSHIP_TRANSACTIONS_PATH),
    {
      onRequest: authenticated,
      config: perUser(20),
      schema: {
        body: submitTransactionRequestSchema,
        response: { 200: submitTransactionResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      try {
        const result = await membership.submit(
          currentUser(request),
          request.body.signedTransaction,
          request.body.signedRenewalInfo,
        );
        return await reply.header('cache-control', 'no-store').send(result);
      } catch (error) {
        if (!(error instanceof TransactionRejected)) throw error;
        return sendApiError(reply, error.status, error.code, MESSAGES[error.code]);
      }
    },
  );

  app.post(
    apiRoute(MEMBERSHIP_RESTORE_PATH),
    {
      onRequest: authenticated,
      config: perUser(10),
      schema: {
        body: restoreRequestSchema,
        response: { 200: restoreResponseSchema, ...errors },
      },
    },
    async (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .send(await membership.restore(currentUser(request), request.body.signedTransactions)),
  );

  // The App Store's calls carry no session: the signature is what is checked. It wants a 200 for
  // anything it should not send again, including types we do not act on.
  app.post(
    apiRoute(APP_STORE_NOTIFICATIONS_PATH),
    {
      config: { rateLimit: { max: 600, timeWindow: '1 minute' } },
      schema: {
        hide: false,
        body: appStoreNotificationRequestSchema,
        response: {
          200: z.object({ outcome: z.string() }),
          400: apiErrorSchema,
          503: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      try {
        const outcome = await membership.notification(request.body.signedPayload);
        request.log.info({ outcome }, 'App Store notification');
        return await reply.header('cache-control', 'no-store').send({ outcome });
      } catch (error) {
        if (!(error instanceof NotificationRejected)) throw error;
        // Apple sends a notification again until it gets a 200: a passing failure is a 503.
        if (error.retry) {
          return sendApiError(
            reply,
            503,
            'verification_unavailable',
            'The notification cannot be verified right now.',
          );
        }
        return sendApiError(
          reply,
          400,
          'invalid_notification',
          'The notification could not be verified.',
        );
      }
    },
  );
  done();
};
