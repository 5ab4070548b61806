import { LRUCache } from 'lru-cache';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { z } from 'zod';
import { standInReceivedEventsFaultSchema } from '@guquan/contract/demo-platform';
import { platformEventsOutDeliverySchema } from '@guquan/contract/platform-events-out';
import type { StandInRoutes } from './stand-in-context.ts';

/**
 * The stand-in platform's events receiver (PRODUCT.md, "Events out"): `POST /v1/events`, the
 * site's events verified with the `standardwebhooks` package against PLATFORM_EVENTS_SECRET (401
 * when the signature is missing, wrong or stale), each `webhook-id` applied once (a repeat is
 * answered 200 and counted as an attempt), kept in memory for the simulator's panel. The demo
 * can make the next deliveries fail (503), to watch the site retry them with the same id; tests
 * can also make it refuse (422) or hang on every delivery that carries an event of given users,
 * to watch one user's trouble stay that user's. A hanging delivery is answered 503 when the
 * faults are set again or the stand-in closes.
 */
export const EVENTS_RECEIVER_PATH = '/v1/events';
export const RECEIVED_EVENTS_PATH = '/demo/received-events';
export const RECEIVED_EVENTS_FAULT_PATH = '/demo/received-events/fault';

/** Deliveries the demo lists, newest first. */
const LISTED = 50;
/** Ids remembered to apply each once. */
const REMEMBERED = 10_000;

export interface ReceivedDelivery {
  webhookId: string;
  receivedAt: string;
  events: { type: string; userId: string }[];
  /** Attempts that arrived with this id, the failed ones included. */
  attempt: number;
}

const usersSchema = z.array(z.string().min(1)).max(10);
/** Each field given replaces its fault; one left out stays as it was. */
const faultSchema = standInReceivedEventsFaultSchema.partial().extend({
  /** Deliveries carrying an event of one of these users are answered 422. */
  refuseUsers: usersSchema.optional(),
  /** Deliveries carrying an event of one of these users get no answer (until released). */
  hangUsers: usersSchema.optional(),
});

function refuse(status: number, code: string, message: string) {
  return { status, body: { error: { code, message } } };
}

export const eventsReceiverRoutes: StandInRoutes = (app, { secrets }, done) => {
  const webhook = new Webhook(secrets.eventsSecret);
  const listed = new LRUCache<string, ReceivedDelivery>({ max: LISTED });
  const applied = new LRUCache<string, true>({ max: REMEMBERED });
  let failNext = 0;
  let refused = new Set<string>();
  let hanging = new Set<string>();
  /** The deliveries held without an answer: each released with a 503. */
  const held = new Set<() => void>();
  const releaseHeld = () => {
    for (const release of held) release();
    held.clear();
  };
  app.addHook('preClose', (done) => {
    releaseHeld();
    done();
  });

  // The body as sent: the signature is over its exact bytes.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, parsed) => {
    parsed(null, raw);
  });

  app.post(EVENTS_RECEIVER_PATH, async (request, reply) => {
    const raw = typeof request.body === 'string' ? request.body : '';
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : '';
    };
    const headers = {
      'webhook-id': header('webhook-id'),
      'webhook-timestamp': header('webhook-timestamp'),
      'webhook-signature': header('webhook-signature'),
    };
    const answer = (() => {
      try {
        webhook.verify(raw, headers);
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        return refuse(401, 'unauthorized', 'The signature is missing, wrong or stale.');
      }
      const parsedBody = platformEventsOutDeliverySchema.safeParse(safeJson(raw));
      if (!parsedBody.success) return refuse(400, 'invalid_request', parsedBody.error.message);
      const id = headers['webhook-id'];
      const users = new Set(parsedBody.data.events.map((event) => event.data.userId));
      const known = listed.get(id);
      listed.set(id, {
        webhookId: id,
        receivedAt: new Date().toISOString(),
        events: parsedBody.data.events.map((event) => ({
          type: event.type,
          userId: event.data.userId,
        })),
        attempt: (known?.attempt ?? 0) + 1,
      });
      // Applied once: a repeat (its answer was lost) is acknowledged and changes nothing.
      if (applied.has(id)) return { status: 200, body: { received: 0 } };
      if ([...users].some((user) => hanging.has(user))) return 'hang';
      if ([...users].some((user) => refused.has(user))) {
        return refuse(422, 'refused', "The test made deliveries with this user's events fail.");
      }
      if (failNext > 0) {
        failNext -= 1;
        return refuse(503, 'unavailable', 'The demo made this delivery fail.');
      }
      applied.set(id, true);
      return { status: 200, body: { received: parsedBody.data.events.length } };
    })();
    if (answer === 'hang') {
      await new Promise<void>((resolve) => held.add(resolve));
      const released = refuse(503, 'unavailable', 'The delivery was held and let go.');
      return reply.code(released.status).send(released.body);
    }
    return reply.code(answer.status).header('cache-control', 'no-store').send(answer.body);
  });

  app.get(RECEIVED_EVENTS_PATH, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ deliveries: [...listed.values()], failNext }),
  );

  app.post(RECEIVED_EVENTS_FAULT_PATH, async (request, reply) => {
    const body = faultSchema.safeParse(
      typeof request.body === 'string' ? safeJson(request.body) : request.body,
    );
    if (!body.success) {
      return reply
        .code(400)
        .send({ error: { code: 'invalid_request', message: body.error.message } });
    }
    releaseHeld();
    failNext = body.data.failNext ?? failNext;
    refused = new Set(body.data.refuseUsers ?? refused);
    hanging = new Set(body.data.hangUsers ?? hanging);
    return reply.code(204).send();
  });
  done();
};

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
