import type { FastifyInstance } from 'fastify';
import { PLATFORM_EVENTS_PATH } from '@guquan/contract/platform-events';
import type { DataPaths } from '../config/data-paths.ts';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { Db } from '../db/database.ts';
import { backOff } from '../timing/back-off.ts';
import { isEmpty, wipeData } from './seed/seed.ts';
import { demoCommunityArrived, seedSiteDemoRecords } from './seed/site-demo-records.ts';
import {
  DEMO_COMMUNITY_DELIVERIES_PATH,
  postToStandIn,
  STAND_IN_ISSUER,
} from './stand-in-client.ts';

/** How often a demo server looks whether the community has arrived. */
const ARRIVAL_POLL_MS = 500;
/** The longest wait between two requests for the community the stand-in did not take. */
const ASK_MAX_WAIT_MS = 30_000;

/** Whether the site's platform is the stand-in (a real platform's data is never seeded). */
export function isStandIn(platform: PlatformConfig): boolean {
  return platform.issuer === STAND_IN_ISSUER;
}

/** The site's events endpoint as the stand-in on loopback reaches it. */
function eventsUrlOf(app: FastifyInstance): string {
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard ? '127.0.0.1' : address.address;
  return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}${PLATFORM_EVENTS_PATH}`;
}

async function askForTheCommunity(platform: PlatformConfig, eventsUrl: string): Promise<void> {
  const response = await postToStandIn(platform, DEMO_COMMUNITY_DELIVERIES_PATH, { eventsUrl });
  if (response.status !== 202) {
    throw new Error(`the stand-in answered ${response.status}: ${await response.text()}`);
  }
}

/**
 * A demo server on the stand-in platform whose copy is empty (its first start, or after `npm run
 * seed`): once it listens, it asks the stand-in for the demo community, which arrives as signed
 * deliveries through `POST …/platform/events` like any platform's data (its images fetched from
 * the stand-in's media origin); when the users and designs are there, it writes its own demo
 * records (site-demo-records.ts), as it does on a later start if they are missing. Answers
 * whether it asked (docs/decisions/0024-the-stand-in-platform.md).
 */
export async function receiveDemoCommunityIfEmpty(
  app: FastifyInstance,
  { db, paths, platform }: { db: Db; paths: DataPaths; platform: PlatformConfig },
): Promise<boolean> {
  if (!isStandIn(platform)) return false;
  const empty = await isEmpty(db);
  // Images left by an earlier, interrupted start belong to nothing: start clean.
  if (empty) await wipeData(db, paths);
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const waitForArrival = async (): Promise<void> => {
    if (closed) return;
    if (!(await demoCommunityArrived(db))) {
      timer = setTimeout(() => void waitForArrival().catch(logFailure), ARRIVAL_POLL_MS);
      return;
    }
    if (await seedSiteDemoRecords(db)) app.log.info('wrote the site’s own demo records');
  };
  const logFailure = (error: unknown) => {
    app.log.error({ err: error }, 'the demo community did not arrive');
  };
  // Asked again, with back-off, until the stand-in takes the request: a demo that never asked
  // would stay empty (and `starting`) for good.
  const ask = async (attempt: number): Promise<void> => {
    if (closed) return;
    try {
      await askForTheCommunity(platform, eventsUrlOf(app));
    } catch (error) {
      const waitMs = backOff({ attempt, firstMs: 1_000, maxMs: ASK_MAX_WAIT_MS });
      app.log.warn({ err: error, waitMs }, 'the stand-in platform did not take the request yet');
      timer = setTimeout(() => void ask(attempt + 1).catch(logFailure), waitMs);
      return;
    }
    app.log.info('asked the stand-in platform for the demo community');
    await waitForArrival();
  };
  // In the background: the server's other onListen hooks do not wait for the stand-in. A copy
  // that is not empty: the site's own records are written if a server stopped after the
  // community came and before it wrote them (seedSiteDemoRecords writes nothing twice).
  app.addHook('onListen', (done) => {
    void (empty ? ask(1) : waitForArrival()).catch(logFailure);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    closed = true;
    clearTimeout(timer);
    done();
  });
  return empty;
}
