import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  PLATFORM_DELIVERY_MAX_BYTES,
  PLATFORM_EVENTS_PATH,
  platformDeliveryResultSchema,
} from '@guquan/contract/platform-events';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { parsePlatformEvents } from './platform-event-parser.ts';
import { applyDelivery } from './platform-deliveries.ts';
import { webhookVerifier } from './webhook-signature.ts';

/** What a delivery came to, for the metrics: never an id. */
export type DeliveryResultLabel = 'applied' | 'repeat' | 'unauthorized' | 'invalid';

export interface PlatformObserver {
  delivery(result: DeliveryResultLabel, events: { applied: number; ignored: number }): void;
}

export interface PlatformRoutesOptions {
  db: Db;
  phones: PhoneProtection;
  /** The platform's settings (or the stand-in's, in demo mode without PLATFORM_*). */
  platform: PlatformConfig;
  observer?: PlatformObserver;
  /** Called once a delivery's transaction has committed (the image fetcher looks for new rows). */
  onApplied?: () => void;
}

/** The platform may send 1 to 500 events a delivery; a backfill sends many: 10 a second. */
const DELIVERIES_PER_MINUTE = 600;
/** `webhook-id`s are kept in a varchar(200). */
const MAX_WEBHOOK_ID = 200;

/**
 * `POST …/platform/events` (PRODUCT.md, "Events in"). The body is kept as the bytes that came
 * (this plugin's own JSON parser), as the signature covers them; it is parsed only once verified.
 */
export const platformRoutes: FastifyPluginCallbackZod<PlatformRoutesOptions> = (
  app,
  { db, phones, platform, observer, onApplied },
  done,
) => {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer', bodyLimit: PLATFORM_DELIVERY_MAX_BYTES },
    (_request, body, parsed) => {
      parsed(null, body);
    },
  );

  const verifier = webhookVerifier(platform.webhookSecrets);
  const none = { applied: 0, ignored: 0 };

  app.post(
    apiRoute(PLATFORM_EVENTS_PATH),
    {
      bodyLimit: PLATFORM_DELIVERY_MAX_BYTES,
      config: { rateLimit: { max: DELIVERIES_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        hide: false,
        summary: "The platform's events in (Standard Webhooks 1.0)",
        response: {
          200: platformDeliveryResultSchema,
          400: apiErrorSchema,
          401: apiErrorSchema,
          413: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = verifier.verify(body, request.headers);
      if (!signature.ok) {
        observer?.delivery('unauthorized', none);
        return sendApiError(reply, 401, 'invalid_signature', signature.reason);
      }
      if (signature.webhookId.length > MAX_WEBHOOK_ID) {
        observer?.delivery('invalid', none);
        return sendApiError(
          reply,
          400,
          'invalid_delivery',
          `webhook-id: must be at most ${MAX_WEBHOOK_ID} characters`,
        );
      }
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        observer?.delivery('invalid', none);
        return sendApiError(reply, 400, 'invalid_delivery', '(body): is not JSON');
      }
      const parsed = parsePlatformEvents(json, platform.mediaOrigins);
      if (!parsed.ok) {
        observer?.delivery('invalid', none);
        return sendApiError(reply, 400, 'invalid_delivery', `${parsed.path}: ${parsed.message}`);
      }
      if (parsed.unknownTypes.length > 0) {
        request.log.warn(
          { types: [...new Set(parsed.unknownTypes)] },
          'platform events of unknown types ignored',
        );
      }
      const outcome = await applyDelivery(
        db,
        {
          webhookId: signature.webhookId,
          events: parsed.events,
          unknownTypes: parsed.unknownTypes.length,
        },
        { phones },
      );
      const result = { applied: outcome.applied, ignored: outcome.ignored };
      if (!outcome.repeat && outcome.applied > 0) onApplied?.();
      observer?.delivery(outcome.repeat ? 'repeat' : 'applied', outcome.repeat ? none : result);
      return reply.header('cache-control', 'no-store').send(result);
    },
  );
  done();
};
