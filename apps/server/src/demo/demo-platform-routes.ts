import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  DEMO_PLATFORM_FAULTS_PATH,
  DEMO_PLATFORM_PATH,
  STAND_IN_DEMO_PATHS,
  demoPlatformFaultsSchema,
  demoPlatformSchema,
  standInLedgerSchema,
  standInReceivedEventsSchema,
} from '@guquan/contract/demo-platform';
import type { PlatformConfig } from '../config/platform-config.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import { getFromStandIn, postToStandIn } from './stand-in-client.ts';

/**
 * Reads of the stand-in's state one address may make in a minute: the simulator's panel asks
 * every 2 s while it is open (30 a minute per tab), a tester may have a few tabs open.
 */
export const DEMO_PLATFORM_READS_PER_MINUTE = 300;
/** Fault settings one address may make in a minute: a person's clicks, or a test's. */
export const DEMO_PLATFORM_FAULTS_PER_MINUTE = 60;

class StandInUnavailable extends Error {
  override name = 'StandInUnavailable';
}

/** One of the stand-in's demo views: null when it has no such route (404), else its answer. */
async function readStandIn<T>(
  platform: PlatformConfig,
  path: string,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const response = await getFromStandIn(platform, path);
  if (response.status === 404) {
    await response.body?.cancel();
    return null;
  }
  const body: unknown = await response.json().catch(() => undefined);
  const parsed = schema.safeParse(body);
  if (!response.ok || !parsed.success) {
    throw new StandInUnavailable(`${path} answered ${response.status} with an unexpected body`);
  }
  return parsed.data;
}

async function setStandInFault(
  platform: PlatformConfig,
  path: string,
  body: unknown,
): Promise<void> {
  const response = await postToStandIn(platform, path, body);
  await response.body?.cancel();
  if (response.status !== 204) throw new StandInUnavailable(`${path} answered ${response.status}`);
}

function platformUnavailable(log: FastifyBaseLogger, error: unknown, what: string) {
  log.warn({ err: error }, `the stand-in platform did not ${what}`);
}

/**
 * Demo mode only (registered by demo-mode.ts): the bridge simulator's "Platform" section. It reads
 * the stand-in platform's points ledger and the events it received from the site, and sets what
 * the next debit and the next deliveries meet there, so a tester watches a redemption and a
 * deletion reach the platform, and the site's recovery from a platform that fails, hangs or
 * loses its answer.
 */
export const demoPlatformRoutes: FastifyPluginCallbackZod<{ platform: PlatformConfig }> = (
  app,
  { platform },
  done,
) => {
  app.get(
    apiRoute(DEMO_PLATFORM_PATH),
    {
      config: { rateLimit: { max: DEMO_PLATFORM_READS_PER_MINUTE, timeWindow: '1 minute' } },
      schema: { response: { 200: demoPlatformSchema, 502: apiErrorSchema } },
    },
    async (request, reply) => {
      try {
        const [ledger, received] = await Promise.all([
          readStandIn(platform, STAND_IN_DEMO_PATHS.ledger, standInLedgerSchema),
          readStandIn(platform, STAND_IN_DEMO_PATHS.receivedEvents, standInReceivedEventsSchema),
        ]);
        return await reply.header('cache-control', 'no-store').send({ ledger, received });
      } catch (error) {
        platformUnavailable(request.log, error, 'show its demo state');
        return sendApiError(reply, 502, 'platform_unavailable', 'The platform did not answer.');
      }
    },
  );

  app.post(
    apiRoute(DEMO_PLATFORM_FAULTS_PATH),
    {
      config: { rateLimit: { max: DEMO_PLATFORM_FAULTS_PER_MINUTE, timeWindow: '1 minute' } },
      schema: {
        body: demoPlatformFaultsSchema,
        response: {
          204: z.null().describe('The stand-in took the faults'),
          400: apiErrorSchema,
          502: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { debit, eventsFailNext } = request.body;
      try {
        if (debit !== undefined) {
          await setStandInFault(platform, STAND_IN_DEMO_PATHS.ledgerFault, { fault: debit });
        }
        if (eventsFailNext !== undefined) {
          await setStandInFault(platform, STAND_IN_DEMO_PATHS.receivedEventsFault, {
            failNext: eventsFailNext,
          });
        }
      } catch (error) {
        platformUnavailable(request.log, error, 'take the fault');
        return sendApiError(reply, 502, 'platform_unavailable', 'The platform took no fault.');
      }
      return reply.code(204).header('cache-control', 'no-store').send(null);
    },
  );
  done();
};
