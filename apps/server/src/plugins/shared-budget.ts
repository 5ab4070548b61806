import { createHash, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A budget of `max` units a window of `windowMs`, the window starting with its first unit. */
export interface BudgetOptions {
  /** Names the counter (in Redis, under the rate limits' prefix). */
  name: string;
  max: number;
  windowMs: number;
}

/** What a take answers: a unit, or how long until the window ends. */
export type BudgetTake =
  | {
      granted: true;
      /**
       * Returns the unit to the window it came from (a later window is not credited). Never
       * throws: a unit that cannot be returned stays spent until its window ends.
       */
      giveBack: () => Promise<void>;
    }
  | { granted: false; retryAfterSeconds: number };

/**
 * A count that is taken before the work it pays for, in one step: however many requests are in
 * flight at once, at most `max` units are granted a window. @fastify/rate-limit's stores count
 * after the fact and cannot return a unit, hence this.
 */
export interface Budget {
  take: () => Promise<BudgetTake>;
}

export type MakeBudget = (options: BudgetOptions) => Budget;

function secondsUntil(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/** One server's budget, in its memory (no REDIS_URL; and the stand-in while Redis is away). */
export function memoryBudget(
  { max, windowMs }: BudgetOptions,
  now: () => number = () => Date.now(),
): Budget {
  let window: { startedAt: number; taken: number } | undefined;
  return {
    take() {
      const at = now();
      if (!window || at >= window.startedAt + windowMs) window = { startedAt: at, taken: 0 };
      if (window.taken >= max)
        return Promise.resolve({
          granted: false,
          retryAfterSeconds: secondsUntil(window.startedAt + windowMs - at),
        });
      window.taken += 1;
      const held = window;
      return Promise.resolve({
        granted: true,
        giveBack: () => {
          if (window === held) held.taken -= 1;
          return Promise.resolve();
        },
      });
    },
  };
}

/**
 * Takes a unit if the window has one left. The window is a hash: `n` units taken, `w` its id
 * (ARGV[3], fresh for each take, kept only by the take that opens the window), expiring with the
 * window. Answers {granted 0|1, milliseconds left, window id}.
 */
const TAKE = `
local id = redis.call('HGET', KEYS[1], 'w')
if not id then
  redis.call('HSET', KEYS[1], 'w', ARGV[3], 'n', 1)
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return {1, tonumber(ARGV[2]), ARGV[3]}
end
local ttl = redis.call('PTTL', KEYS[1])
if tonumber(redis.call('HGET', KEYS[1], 'n')) >= tonumber(ARGV[1]) then
  return {0, ttl, id}
end
redis.call('HINCRBY', KEYS[1], 'n', 1)
return {1, ttl, id}
`;

/** Returns a unit to window ARGV[1], if that window is still the current one. */
const GIVE_BACK = `
if redis.call('HGET', KEYS[1], 'w') == ARGV[1] then
  redis.call('HINCRBY', KEYS[1], 'n', -1)
end
return 0
`;

interface Script {
  source: string;
  sha: string;
}

function script(source: string): Script {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

const TAKE_SCRIPT = script(TAKE);
const GIVE_BACK_SCRIPT = script(GIVE_BACK);

/** Runs a script by its digest, sending it whole only when Redis does not know it yet. */
async function runScript(
  redis: Redis,
  { source, sha }: Script,
  key: string,
  args: (string | number)[],
): Promise<unknown> {
  try {
    return await redis.evalsha(sha, 1, key, ...args);
  } catch (error) {
    if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
    return redis.eval(source, 1, key, ...args);
  }
}

function takeAnswer(reply: unknown): { granted: boolean; ttl: number; window: string } {
  if (!Array.isArray(reply) || reply.length !== 3) throw new Error('unexpected budget reply');
  const [granted, ttl, window] = reply as unknown[];
  if (typeof granted !== 'number' || typeof ttl !== 'number' || typeof window !== 'string')
    throw new Error('unexpected budget reply');
  return { granted: granted === 1, ttl, window };
}

/**
 * The budget shared by every server through Redis, taken and given back atomically (Lua). While
 * Redis does not answer, each server takes from `whileAway`, its own memory budget: claims keep
 * being answered, and the ceiling becomes `max` per server rather than none.
 */
export function redisBudget(
  redis: Redis,
  { name, max, windowMs }: BudgetOptions,
  { keyPrefix, whileAway }: { keyPrefix: string; whileAway: Budget },
): Budget {
  const key = `${keyPrefix}budget:${name}`;
  return {
    async take() {
      let answer: ReturnType<typeof takeAnswer>;
      try {
        answer = takeAnswer(
          await runScript(redis, TAKE_SCRIPT, key, [max, windowMs, randomUUID()]),
        );
      } catch {
        return whileAway.take();
      }
      if (!answer.granted)
        return { granted: false, retryAfterSeconds: secondsUntil(Math.max(0, answer.ttl)) };
      return {
        granted: true,
        giveBack: async () => {
          await runScript(redis, GIVE_BACK_SCRIPT, key, [answer.window]).catch(() => undefined);
        },
      };
    },
  };
}
