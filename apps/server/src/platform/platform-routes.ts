import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest } from 'fastify';
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
import { nextTurn } from '../db/event-loop-turns.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { readRequestBody } from '../http/request-body.ts';
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
/**
 * 5 MB a delivery; a larger one is still read to its end up to 16 MB before its 413, so a sender
 * that reads only once it has sent everything gets the answer (http/request-body.ts).
 */
const DELIVERY_BODY_LIMITS = {
  maxBytes: PLATFORM_DELIVERY_MAX_BYTES,
  drainBytes: 16 * 1024 * 1024,
};
/** `webhook-id`s are kept in a varchar(200). */
const MAX_WEBHOOK_ID = 200;

/**
 * `POST …/platform/events` (PRODUCT.md, "Events in"). The body is kept as the bytes that came
 * (this plugin's own JSON parser), as the signature covers them; it is parsed only once verified.
 * A body past 5 MB is answered 413 once read (up to 16 MB), not cut off mid-send.
 */
export const platformRoutes: FastifyPluginCallbackZod<PlatformRoutesOptions> = (
  app,
  { db, phones, platform, observer, onApplied },
  done,
) => {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(
    'application/json',
    (request: FastifyRequest, payload: IncomingMessage): Promise<Buffer> =>
      readRequestBody(payload, request.headers['content-length'], DELIVERY_BODY_LIMITS),
  );

  const verifier = webhookVerifier(() => platform.webhookSecrets);
  const none = { applied: 0, ignored: 0 };

  app.post(
    apiRoute(PLATFORM_EVENTS_PATH),
    {
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
      // Before the signature: the signature library checks the body decoded as text, in which a
      // bad byte has become U+FFFD, so a body signed as sent would be refused as badly signed.
      if (!isUtf8(body)) {
        observer?.delivery('invalid', none);
        return sendApiError(reply, 400, 'invalid_encoding', '(body): is not valid UTF-8');
      }
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
      // The signature (an HMAC over up to 5 MB), the JSON and the events are steps of their own,
      // the event loop given back between them: pages answer meanwhile (issue 37).
      await nextTurn();
      let json: unknown;
      try {
        json = JSON.parse(body.toString('utf8'));
      } catch {
        observer?.delivery('invalid', none);
        return sendApiError(reply, 400, 'invalid_delivery', '(body): is not JSON');
      }
      await nextTurn();
      const parsed = await parsePlatformEvents(json, platform.mediaOrigins);
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
      const { repeat, ...result } = outcome;
      // Waiting events made image rows too.
      if (!repeat && outcome.applied + (outcome.waiting ?? 0) > 0) onApplied?.();
      const counts = { applied: outcome.applied, ignored: outcome.ignored };
      observer?.delivery(repeat ? 'repeat' : 'applied', repeat ? none : counts);
      return reply.header('cache-control', 'no-store').send(result);
    },
  );
  done();
};
