import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  designApiPath,
  designPreviewApiPath,
  designPreviewSchema,
  designViewSchema,
  IDEMPOTENCY_KEY_HEADER,
  idempotencyKeySchema,
  REDEMPTION_FAILURES,
  redemptionResultSchema,
  redemptionsApiPath,
  type RedemptionFailure,
} from '@guquan/contract/design';
import { publicIdSchema } from '@guquan/contract/share';
import { currentUser, requireUser } from '../auth/authenticate.ts';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { DesignRepository } from './design-repository.ts';
import type { RedemptionService } from './redemption-service.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';

export interface DesignRoutesOptions {
  designs: DesignRepository;
  redemptions: RedemptionService;
  auth: Authenticator;
}

/** Redemptions per user per minute: far above any person's taps, far below a script's. */
const REDEMPTIONS_PER_MINUTE = 60;

const MESSAGES: Readonly<
  Record<Exclude<RedemptionFailure, 'unauthorized' | 'too_many_requests'>, string>
> = {
  invalid_id: 'The design id is missing or malformed.',
  invalid_idempotency_key: 'The Idempotency-Key header must be a UUID.',
  not_found: 'There is no such design.',
  already_redeemed: 'You have redeemed this design already.',
  insufficient_points: 'You do not have enough points for this design.',
  own_design: 'This is your own design: designers do not redeem their own drawings.',
  unavailable: 'This design can no longer be redeemed.',
  idempotency_key_reused: 'This Idempotency-Key was used for another design.',
};

const paramsSchema = z.object({
  designId: publicIdSchema.describe('The design’s public id (1 to 64 of A–Z a–z 0–9 _ -)'),
});
const redeemHeadersSchema = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: idempotencyKeySchema.describe(
    'A UUID made once per redemption attempt and sent again unchanged with its retries',
  ),
});

function failureResponses(failures: readonly RedemptionFailure[]) {
  return Object.fromEntries(
    failures.map((failure) => [REDEMPTION_FAILURES[failure], apiErrorSchema]),
  );
}

/** The route's design id, read from the raw params (a malformed one is answered, not thrown). */
function designIdOf(request: FastifyRequest): string | undefined {
  const parsed = publicIdSchema.safeParse((request.params as { designId?: unknown }).designId);
  return parsed.success ? parsed.data : undefined;
}

/**
 * A design for the redeem page, and redeeming it. Both need a session (the page gets the token
 * from the app through the bridge); answers are the user's own and never cached.
 */
export const designRoutes: FastifyPluginCallbackZod<DesignRoutesOptions> = (
  app,
  { designs, redemptions, auth },
  done,
) => {
  const authenticated = requireUser(auth);

  app.get(
    apiRoute(designApiPath()),
    {
      onRequest: authenticated,
      schema: {
        summary: 'A design drawing, the user’s points and whether the user has redeemed it',
        tags: ['designs'],
        params: paramsSchema,
        response: {
          200: designViewSchema,
          ...failureResponses(['invalid_id', 'unauthorized', 'not_found']),
        },
      },
      // A malformed id is answered as `invalid_id`, after the session check.
      attachValidation: true,
    },
    async (request, reply) => {
      const designId = designIdOf(request);
      if (!designId) return sendApiError(reply, 400, 'invalid_id', MESSAGES.invalid_id);
      const view = await designs.view(currentUser(request).id, designId);
      if (!view) return sendApiError(reply, 404, 'not_found', MESSAGES.not_found);
      return reply.header('cache-control', 'no-store').send(view);
    },
  );

  // Before the log-in the redeem page shows what would be redeemed (issue 39): the design alone,
  // which anybody may read, as its preview image already is; nothing of any user.
  app.get(
    apiRoute(designPreviewApiPath()),
    {
      schema: {
        summary: 'A design drawing as anybody may see it: title, designer, preview, price',
        tags: ['designs'],
        params: paramsSchema,
        response: {
          200: designPreviewSchema,
          ...failureResponses(['invalid_id', 'not_found']),
        },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      const designId = designIdOf(request);
      if (!designId) return sendApiError(reply, 400, 'invalid_id', MESSAGES.invalid_id);
      const design = await designs.findDesign(designId);
      if (!design) return sendApiError(reply, 404, 'not_found', MESSAGES.not_found);
      return reply.header('cache-control', 'no-store').send({ design });
    },
  );

  app.post(
    apiRoute(redemptionsApiPath()),
    {
      onRequest: authenticated,
      config: {
        rateLimit: {
          max: REDEMPTIONS_PER_MINUTE,
          timeWindow: '1 minute',
          // After requireUser, so the limit is per user, whichever device or address they use.
          hook: 'preHandler',
          keyGenerator: (request) => `redeem:${request.user?.publicId ?? request.ip}`,
        },
      },
      schema: {
        summary: 'Redeems a design drawing with points, once per user (idempotent per key)',
        tags: ['designs'],
        params: paramsSchema,
        headers: redeemHeadersSchema,
        response: {
          200: redemptionResultSchema.describe('The same key again: the original redemption'),
          201: redemptionResultSchema.describe('Redeemed: the platform charged the points'),
          202: redemptionResultSchema.describe(
            'Pending: the platform has not answered within 1.5 s (the server waits no longer); ' +
              'the debit goes on, or is asked again with the same key, and GET of the design ' +
              'shows the redemption once it completes',
          ),
          ...failureResponses([
            'invalid_id',
            'unauthorized',
            'not_found',
            'already_redeemed',
            'insufficient_points',
            'own_design',
            'unavailable',
            'idempotency_key_reused',
            'too_many_requests',
          ]),
        },
      },
      attachValidation: true,
    },
    async (request, reply) => {
      const designId = designIdOf(request);
      if (!designId) return sendApiError(reply, 400, 'invalid_id', MESSAGES.invalid_id);
      const key = idempotencyKeySchema.safeParse(request.headers[IDEMPOTENCY_KEY_HEADER]);
      if (!key.success) {
        return sendApiError(
          reply,
          400,
          'invalid_idempotency_key',
          MESSAGES.invalid_idempotency_key,
        );
      }
      const outcome = await redemptions.redeem({
        userId: currentUser(request).id,
        designId,
        // One spelling per key: upper- and lower-case hex are the same UUID.
        idempotencyKey: key.data.toLowerCase(),
      });
      switch (outcome.state) {
        case 'redeemed':
          return reply.code(201).header('cache-control', 'no-store').send(outcome.result);
        case 'replayed':
          return reply.code(200).header('cache-control', 'no-store').send(outcome.result);
        case 'pending':
          return reply.code(202).header('cache-control', 'no-store').send(outcome.result);
        case 'insufficient_points':
        case 'not_found':
        case 'already_redeemed':
        case 'own_design':
        case 'unavailable':
        case 'idempotency_key_reused':
          return sendApiError(
            reply,
            REDEMPTION_FAILURES[outcome.state],
            outcome.state,
            MESSAGES[outcome.state],
          );
      }
    },
  );
  done();
};
