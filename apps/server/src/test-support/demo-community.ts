import type { FastifyInstance } from 'fastify';
import { PLATFORM_EVENTS_PATH } from '@guquan/contract/platform-events';
import type { Db } from '../db/database.ts';
import { waitingImageCount } from '../media/waiting-images.ts';
import { seedSiteDemoRecords } from '../demo/seed/site-demo-records.ts';
import { demoCommunityDeliveries } from '../stand-in/demo-community.ts';
import {
  deliverEvents,
  type DeliveryReport,
  type PostDelivery,
} from '../stand-in/deliver-events.ts';
import type { StandInPlatform } from '../stand-in/stand-in-platform.ts';
import { sleep } from '../timing/sleep.ts';

/** Posts deliveries to `app`'s events route in process: the same signed requests, no socket. */
export function injectDeliveries(app: FastifyInstance): PostDelivery {
  return async ({ body, headers }) => {
    const response = await app.inject({
      method: 'POST',
      url: PLATFORM_EVENTS_PATH,
      headers,
      payload: body,
    });
    return { status: response.statusCode, body: response.body };
  };
}

/**
 * Waits until no image is waiting for its file (fetched or failed), at most `timeoutMs`: a limit
 * for a fetch that hangs, not a speed (a second or two on an idle machine; on a loaded one the
 * seeding's transaction on this test's own connection can hold the app's fetcher back for long).
 */
export async function waitUntilNoImageWaits(db: Db, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const waiting = await waitingImageCount(db);
    if (waiting === 0) return;
    if (Date.now() > deadline)
      throw new Error(`${waiting} images still waiting after ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * The demo community as a demo server gets it, for tests: the stand-in's events delivered to
 * `app` through `POST …/platform/events` (signed with the stand-in's secret, in process), the
 * site's own demo records once they are in, and every image fetched from the stand-in's media
 * origin by the app's fetcher.
 */
export async function deliverDemoCommunity(
  app: FastifyInstance,
  standIn: StandInPlatform,
  db: Db,
  imageScale: number,
): Promise<DeliveryReport> {
  const report: DeliveryReport = { batches: 0, applied: 0, ignored: 0 };
  for (const events of demoCommunityDeliveries({ mediaOrigin: standIn.origin, imageScale })) {
    const one = await deliverEvents(events, {
      secret: standIn.secrets.webhookSecret,
      post: injectDeliveries(app),
      firstWaitMs: 50,
    });
    report.batches += one.batches;
    report.applied += one.applied;
    report.ignored += one.ignored;
  }
  await seedSiteDemoRecords(db);
  await waitUntilNoImageWaits(db);
  return report;
}
