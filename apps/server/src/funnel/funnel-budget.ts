import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_BEACON_EVENTS } from '@guquan/contract/funnel-events';

/**
 * A page loads in a few seconds and reports a handful of events; a household or a campus behind
 * one address (carrier NAT is common in China) sends many. Per address, per minute.
 */
export const BEACONS_PER_MINUTE = 240;

/**
 * The events one address may have counted a minute, by every path together (beacons, link-domain
 * fallbacks, handoffs minted and claimed): what its beacons alone may carry.
 */
export const COUNTED_EVENTS_PER_MINUTE = BEACONS_PER_MINUTE * MAX_BEACON_EVENTS;

/** How many of a request's `events` may be counted (the first ones); the rest are not. */
export type FunnelBudget = (request: FastifyRequest, events: number) => Promise<number>;

/**
 * The budget of counted events per address, in the rate limiter's store: Redis when REDIS_URL is
 * set, so that it holds however many servers share the traffic (plugins/rate-limits.ts). Like the
 * limits, it lets events through while Redis is away. Needs the rate limiter registered.
 */
export function funnelBudget(app: FastifyInstance): FunnelBudget {
  const spend = app.createRateLimit({
    max: COUNTED_EVENTS_PER_MINUTE,
    timeWindow: '1 minute',
    keyGenerator: (request) => `funnel-events:${normalizeIP(request.ip)}`,
  });
  return async (request, events) => {
    const answers = await Promise.all(Array.from({ length: events }, () => spend(request)));
    return answers.filter((answer) => answer.isAllowed || !answer.isExceeded).length;
  };
}
