// `app.createRateLimit`'s types, for a program that does not load the plugin itself (a test's).
import type {} from '@fastify/rate-limit';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '@guquan/contract/api-error';
import {
  APP_LINK_CLAIMS_PATH,
  APP_LINK_HANDOFFS_PATH,
  appPath,
  opensAtImage,
} from '@guquan/contract/app-link-paths';
import {
  claimedHandoffSchema,
  claimHandoffRequestSchema,
  mintedHandoffSchema,
  mintHandoffRequestSchema,
} from '@guquan/contract/app-links';
import type { AppLinksConfig } from '../config/app-links-config.ts';
import type { Db } from '../db/database.ts';
import { sendApiError } from '../http/api-error.ts';
import { apiRoute } from '../http/api-paths.ts';
import type { MakeBudget } from '../plugins/shared-budget.ts';
import type { CountAppLinkEvent } from './app-link-events.ts';
import {
  claimHandoff,
  deleteOldHandoffs,
  mintHandoff,
  type ClaimResult,
  type HandoffTarget,
} from './handoff-store.ts';
import { itemUniversalLink } from './item-universal-link.ts';

/**
 * The limits that make guessing hopeless (docs/decisions/0017-app-links-and-handoffs.md has the arithmetic). Per client: what one
 * phone or one shared address needs, many times over. Per code space: the misses (unknown or
 * expired codes) all clients together may make, and the codes all clients together may mint,
 * which bounds how many live codes a guess could hit.
 */
export const HANDOFF_LIMITS = {
  mintsPerClientPerMinute: 20,
  mintsPerMinute: 3_000,
  claimsPerClientPerMinute: 30,
  missesPerMinute: 600,
} as const;

/** Old codes are swept at most this often, by whichever mint comes first (no timer needed). */
const SWEEP_EVERY_MS = 60 * 60 * 1000;

export interface HandoffRoutesOptions {
  db: Db;
  appLinks: AppLinksConfig;
  countEvent: CountAppLinkEvent;
  /** Where the miss budget is kept: shared by the servers through Redis when configured. */
  budget: MakeBudget;
  now?: () => Date;
}

const TOO_MANY = 'Too many requests. Please try again in a minute.';

type LimiterAnswer =
  { isAllowed: true } | { isAllowed: false; isExceeded: boolean; ttlInSeconds: number };

/**
 * The seconds until a limiter lets requests through again, or undefined when it does now
 * (@fastify/rate-limit's `isAllowed` is only true on its allow list: `isExceeded` says).
 */
function waitOf(result: LimiterAnswer): number | undefined {
  return !result.isAllowed && result.isExceeded ? Math.max(1, result.ttlInSeconds) : undefined;
}

function tooMany(reply: FastifyReply, seconds: number): FastifyReply {
  reply.header('retry-after', String(seconds));
  return sendApiError(reply, 429, 'too_many_requests', TOO_MANY);
}

export const handoffRoutes: FastifyPluginCallbackZod<HandoffRoutesOptions> = (
  app,
  { db, appLinks, countEvent, budget, now = () => new Date() },
  done,
) => {
  // Shared by every server through the rate limiter's store (Redis when configured).
  const mintBudget = app.createRateLimit({
    max: HANDOFF_LIMITS.mintsPerMinute,
    timeWindow: '1 minute',
    keyGenerator: () => 'app-links:mints',
  });
  // Taken before the lookup, not counted after it: guesses in flight together cannot all pass a
  // check that none of them has charged yet.
  const missBudget = budget({
    name: 'app-links:claim-misses',
    max: HANDOFF_LIMITS.missesPerMinute,
    windowMs: 60_000,
  });
  let lastSweep = 0;

  function sweepOldHandoffs(at: Date): void {
    if (at.getTime() - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at.getTime();
    deleteOldHandoffs(db, at).catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not delete old handoff codes');
    });
  }

  app.post(
    apiRoute(APP_LINK_HANDOFFS_PATH),
    {
      config: {
        rateLimit: { max: HANDOFF_LIMITS.mintsPerClientPerMinute, timeWindow: '1 minute' },
      },
      schema: {
        summary: 'Mints the code a share text carries to the store and through the install',
        tags: ['app-links'],
        body: mintHandoffRequestSchema,
        response: { 201: mintedHandoffSchema, 400: apiErrorSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const mintWait = waitOf(await mintBudget(request));
      if (mintWait !== undefined) return tooMany(reply, mintWait);
      const { kind, id, image } = request.body.target;
      const target: HandoffTarget = {
        kind,
        id,
        ...(opensAtImage(kind) && image !== undefined ? { image } : {}),
      };
      const at = now();
      const minted = await mintHandoff(db, target, at);
      await countEvent('handoff_minted', kind, { id, request });
      sweepOldHandoffs(at);
      return reply.code(201).send({
        code: minted.code,
        link: itemUniversalLink(appLinks, target),
        expiresAt: minted.expiresAt.toISOString(),
      });
    },
  );

  app.post(
    apiRoute(APP_LINK_CLAIMS_PATH),
    {
      config: {
        rateLimit: { max: HANDOFF_LIMITS.claimsPerClientPerMinute, timeWindow: '1 minute' },
      },
      schema: {
        summary: 'Claims a share text’s code on the app’s first launch: where the app opens',
        tags: ['app-links'],
        body: claimHandoffRequestSchema,
        response: {
          200: claimedHandoffSchema,
          400: apiErrorSchema,
          404: apiErrorSchema,
          410: apiErrorSchema,
          429: apiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // Every claim takes a miss before the database is asked: once the misses of the minute are
      // spent, nobody's claim is looked up (a hit would otherwise still show through the 200s).
      // Only a miss keeps it; a hit, or a lookup that failed, gives it back.
      const miss = await missBudget.take();
      if (!miss.granted) return tooMany(reply, miss.retryAfterSeconds);
      const { code, installId } = request.body;
      let claimed: ClaimResult;
      try {
        claimed = await claimHandoff(db, code, installId, now());
      } catch (error) {
        await miss.giveBack();
        throw error;
      }
      if (claimed.state === 'expired')
        return sendApiError(reply, 410, 'expired', 'This code has expired.');
      if (claimed.state === 'unknown')
        return sendApiError(reply, 404, 'not_found', 'There is no such code.');
      await miss.giveBack();
      if (claimed.first)
        await countEvent('handoff_claimed', claimed.target.kind, {
          id: claimed.target.id,
          request,
        });
      return reply.send({ target: claimed.target, appPath: appPath(claimed.target) });
    },
  );
  done();
};
