import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import { funnelBeaconSchema } from '@guquan/contract/funnel';
import { EVENTS_PATH, MAX_BEACON_BYTES } from '@guquan/contract/funnel-events';
import { firstIssues } from '../config/zod-issues.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { BEACONS_PER_MINUTE } from './funnel-budget.ts';
import type { FunnelVisitors } from './funnel-visitors.ts';

export interface FunnelRoutesOptions {
  visitors: FunnelVisitors;
}

/** The body as sent: sendBeacon's text/plain JSON (no CORS preflight), or application/json. */
function beaconOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

/**
 * `POST /api/v1/events`: a share page's events (docs/decisions/0018-share-funnel-and-operators-listener.md). Counted by day, kind, item,
 * channel and event; nothing of the request is kept (the User-Agent only picks the channel, and
 * says whether it is a bot, which is not counted). 204 whatever happens to a valid beacon, also
 * when its address has used up the minute's budget of counted events (funnel-budget.ts).
 */
export const funnelRoutes: FastifyPluginCallbackZod<FunnelRoutesOptions> = (
  app,
  { visitors },
  done,
) => {
  app.post(
    apiRoute(EVENTS_PATH),
    {
      bodyLimit: MAX_BEACON_BYTES,
      config: { rateLimit: { max: BEACONS_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        summary: "A share page's funnel events (navigator.sendBeacon, text/plain JSON)",
        description:
          'The body is `{ "events": [{ "event", "kind", "id" }] }` (at most 10, 4 kB), as text/plain or application/json.',
        tags: ['funnel'],
        response: {
          204: z.null().describe('Counted (or, from a bot, ignored)'),
          400: apiErrorSchema,
          413: apiErrorSchema,
          415: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },

    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const beacon = funnelBeaconSchema.safeParse(beaconOf(request.body));
      if (!beacon.success) {
        const detail = firstIssues(beacon.error, '(body)');
        return sendApiError(reply, 400, 'bad_request', `Invalid events: ${detail}`);
      }
      await visitors.countVisitorEvents(request, beacon.data.events);
      return reply.code(204).send(null);
    },
  );
  done();
};
