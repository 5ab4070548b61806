import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { ConfigError } from '../config/env.ts';
import { memoryBudget, redisBudget, type MakeBudget } from './shared-budget.ts';

/** How long a start waits for Redis before it gives up and names REDIS_URL. */
const CONNECT_TIMEOUT_MS = 3_000;
/** A counter that takes longer than this is skipped: a slow Redis must not slow every request. */
const COMMAND_TIMEOUT_MS = 500;
/** Redis' own keys are shared with whatever else uses that database: ours carry a prefix. */
const KEY_PREFIX = 'guquan:rate-limit:';

/** host:port of a Redis URL, for messages: never its password. */
function describeRedis(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '6379'}`;
}

/**
 * Connects to Redis for the rate-limit counters. An unreachable Redis at start is a configuration
 * error: the server stops and names REDIS_URL, rather than run with limits nobody shares.
 */
export async function connectRateLimitRedis(
  url: string,
  { commandTimeoutMs = COMMAND_TIMEOUT_MS }: { commandTimeoutMs?: number } = {},
): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: commandTimeoutMs,
    // While Redis is away, a command fails at once instead of queueing behind the reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
  });
  // Until the caller listens, a failed connect is reported once, below, not as an unhandled event.
  const quiet = () => undefined;
  redis.on('error', quiet);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConfigError(
      `Invalid configuration:\n  REDIS_URL: cannot reach Redis at ${describeRedis(url)} (${reason})`,
    );
  }
  redis.off('error', quiet);
  return redis;
}

/**
 * The rate limiter, off by default: the routes where abuse is cheap (log-in, codes, purchases)
 * set their own limits. Without REDIS_URL each server counts in its own memory (one server: the
 * demo and the embedded default). With it, every server counts in the same Redis, so a limit holds
 * however many servers share the traffic.
 *
 * When Redis goes away while the server runs, requests are let through uncounted (skipOnError)
 * rather than refused: an outage of the counters must not take log-in and redemption down with
 * it. What the limits protect stays protected: SMS codes keep their per-user and per-phone daily
 * limits and attempt counts in the database, redemptions are idempotent and debit once, and the
 * counters resume by themselves when Redis is back (ioredis reconnects).
 */
export async function registerRateLimits(
  app: FastifyInstance,
  redisUrl: string | undefined,
  { onRefused }: { onRefused?: (request: FastifyRequest) => void } = {},
): Promise<RateLimitState> {
  // Every route's own limit inherits it (the plugin merges route options over these).
  const refusals = onRefused ? { onExceeded: onRefused } : {};
  if (!redisUrl) {
    await app.register(rateLimit, { global: false, ...refusals });
    return { budget: (options) => memoryBudget(options) };
  }
  const redis = await connectRateLimitRedis(redisUrl);
  let warned = false;
  redis.on('error', (error: Error) => {
    // Once per outage: a reconnect loop would otherwise log every few hundred milliseconds.
    if (warned) return;
    warned = true;
    app.log.warn(
      { err: error },
      'Redis is unreachable: rate limits are not counted until it is back',
    );
  });
  redis.on('ready', () => {
    if (warned) app.log.info('Redis is back: rate limits are counted again');
    warned = false;
  });
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => {
      redis.disconnect();
    });
  });
  await app.register(rateLimit, {
    global: false,
    redis,
    nameSpace: KEY_PREFIX,
    skipOnError: true,
    ...refusals,
  });
  return {
    redisUp: () => redis.status === 'ready',
    budget: (options) =>
      redisBudget(redis, options, { keyPrefix: KEY_PREFIX, whileAway: memoryBudget(options) }),
  };
}

/** What the readiness check and the metrics read of the limiter. */
export interface RateLimitState {
  /** Whether Redis answers now; absent without REDIS_URL. */
  redisUp?: () => boolean;
  /**
   * A budget taken before the work it pays for (shared-budget.ts), counted where the limits are:
   * in Redis, or in this server's memory without REDIS_URL. While Redis is away it is not let
   * through uncounted as the limits are: each server counts in its own memory meanwhile.
   */
  budget: MakeBudget;
}
