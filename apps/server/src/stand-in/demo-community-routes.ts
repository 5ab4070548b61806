import { z } from 'zod';
import { DEMO_COMMUNITY_DELIVERIES_PATH } from '../demo/stand-in-client.ts';
import { postTo } from '../http/signed-deliveries.ts';
import { demoCommunityDeliveries } from './demo-community.ts';
import { deliverEvents } from './deliver-events.ts';
import type { StandInRoutes } from './stand-in-context.ts';
import { hasServiceToken } from './stand-in-token-routes.ts';

const deliveryRequestSchema = z
  .object({
    /** The site's `POST …/platform/events`, as the stand-in reaches it. */
    eventsUrl: z.url({ protocol: /^https?$/ }),
  })
  .strict();

/**
 * Demo only: the site, finding its copy empty (first start, after `npm run seed`), asks for the
 * demo community, and the stand-in sends it as the platform sends its events: signed deliveries
 * of at most 500, retried until the site has applied each (deliver-events.ts). Answers 202 at
 * once; the deliveries follow in the background, one run at a time, stopped when the stand-in
 * closes. Sending the community again is harmless: its versions have not changed.
 */
export const demoCommunityRoutes: StandInRoutes = (app, { secrets, imageScale, origin }, done) => {
  const closing = new AbortController();
  let running: Promise<void> | undefined;
  app.addHook('onClose', async () => {
    closing.abort();
    await running;
  });

  app.post(DEMO_COMMUNITY_DELIVERIES_PATH, async (request, reply) => {
    if (!hasServiceToken(request, secrets.apiToken)) {
      return reply.code(401).send({
        error: { code: 'unauthorized', message: 'The service token is missing or wrong.' },
      });
    }
    const body = deliveryRequestSchema.safeParse(request.body);
    if (!body.success) {
      return reply
        .code(400)
        .send({ error: { code: 'invalid_request', message: body.error.message } });
    }
    const deliveries = demoCommunityDeliveries({ mediaOrigin: origin(), imageScale });
    const deliverAll = async () => {
      for (const events of deliveries) {
        const report = await deliverEvents(events, {
          secret: secrets.webhookSecret,
          post: postTo(body.data.eventsUrl),
          signal: closing.signal,
          onRetry: (notice) => {
            request.log.warn(notice, 'the site did not take the demo community yet: retrying');
          },
        });
        request.log.info(report, 'delivered the demo community');
      }
    };
    running ??= deliverAll()
      .catch((error: unknown) => {
        if (!closing.signal.aborted) request.log.error({ err: error }, 'demo community refused');
      })
      .finally(() => {
        running = undefined;
      });
    const events = deliveries.reduce((sum, delivery) => sum + delivery.length, 0);
    return reply.code(202).header('cache-control', 'no-store').send({ events });
  });
  done();
};
