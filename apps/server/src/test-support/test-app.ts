import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDeps } from '../app.ts';
import type { LogDestination } from '../http/logging.ts';
import { loadConfig } from '../config/env.ts';
import { demoCommunityArrived } from '../demo/seed/site-demo-records.ts';
import { openDatabase } from '../db/database.ts';
import { deliverDemoCommunity } from './demo-community.ts';
import { migrateFirst } from './migrate-first.ts';
import { loadWebBuild, type WebBuild } from '../pages/web-build.ts';
import type { FetcherLimits } from '../media/platform-image-fetcher.ts';
import { STAND_IN_ISSUER } from '../demo/stand-in-client.ts';
import { startStandInPlatform, type StandInPlatform } from '../stand-in/stand-in-platform.ts';
import { dropTestDatabase, testDatabaseEnv } from './test-engine.ts';
import {
  PRODUCTION_APP_STORE_TEST_ENV,
  TEST_APP_LINKS_ENV,
  TEST_PHONE_ENV,
  TEST_PLATFORM_ENV,
  TEST_SMS_ENV,
} from './production-env.ts';

// The production settings' test values live in production-env.ts, which imports nothing of the
// app (the image's tests use them too); they are exported from here as well, where tests look.
export {
  PRODUCTION_APP_STORE_TEST_ENV,
  TEST_APP_LINKS_ENV,
  TEST_PHONE_ENV,
  TEST_PLATFORM_ENV,
  TEST_PRODUCTION_ENV,
  TEST_SMS_ENV,
} from './production-env.ts';
import { WEB_DIST_DIR } from './build-paths.ts';

/** Demo images drawn at this fraction of their size: the same pictures, seeded in a blink. */
export const TEST_IMAGE_SCALE = 0.25;

/**
 * The image fetcher tries a failed image again within seconds, not after 5 s, 20 s, 80 s: on a
 * loaded machine the in-process stand-in can answer too slowly for the fetcher's slow-host rule,
 * and a test app must not wait minutes for its demo images (a test's own `platformImageLimits`
 * replaces this). It keeps trying for as long as a test waits for the images (90 s,
 * `waitUntilNoImageWaits`): 0.2 s, 0.8 s, then 2 s a wait (`retryDelayMs`, a fifth either way),
 * 50 tries in about 95 s.
 */
const TEST_IMAGE_RETRY: Partial<FetcherLimits> = {
  retry: { firstDelayMs: 200, maxDelayMs: 2_000, maxAttempts: 50 },
};

let webBuild: Promise<WebBuild> | undefined;

const standIns = new WeakMap<FastifyInstance, StandInPlatform>();

/** The stand-in platform buildTestApp started for `app` (demo mode without PLATFORM_*). */
export function standInOf(app: FastifyInstance): StandInPlatform {
  const standIn = standIns.get(app);
  if (!standIn) throw new Error('this test app has no stand-in platform');
  return standIn;
}

/**
 * A token the stand-in platform of `app` signs for `userId`, as the app would hold it; `issuedAt`
 * and `authTime` in Unix seconds (now by default): an `issuedAt` over an hour and a minute ago
 * gives an expired token.
 */
export async function standInToken(
  app: FastifyInstance,
  userId: string,
  { issuedAt, authTime }: { issuedAt?: number; authTime?: number } = {},
): Promise<string> {
  const signed = await standInOf(app).keys.sign(STAND_IN_ISSUER, { userId, issuedAt, authTime });
  return signed.token;
}

/** The web build, loaded once for all the tests of a file. */
export function loadTestWebBuild(): Promise<WebBuild> {
  webBuild ??= loadWebBuild(WEB_DIST_DIR);
  return webBuild;
}

/**
 * A fresh, empty data directory, removed by the returned function (with its PostgreSQL database
 * when the tests run on PostgreSQL: test-engine.ts).
 */
export async function makeTempDataDir(): Promise<{ dataDir: string; remove: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'guquan-test-'));
  return {
    dataDir,
    remove: async () => {
      await dropTestDatabase(dataDir);
      // Retried: a file written as the app closed (once, ENOTEMPTY) must not fail a test.
      await rm(dataDir, { recursive: true, force: true, maxRetries: 3 });
    },
  };
}

/** What a test may replace in the app it builds (app.ts's AppDeps, the logger as a stream). */
export type TestAppOverrides = Omit<AppDeps, 'logging'> & {
  /** Log lines go here (at env.LOG_LEVEL) instead of nowhere. */
  logStream?: LogDestination;
  prettyLogs?: boolean;
  /**
   * Production mode only: start on the database as it is, without the migrate step a deployment
   * runs first (tests of the refusal of a database behind the code).
   */
  skipMigrateStep?: boolean;
};

/**
 * The real app, built in process as `npm start` builds it, with the logger silenced, on a data
 * directory of its own (seeded with the demo data on start, removed when the app closes) unless
 * `env.DATA_DIR` names one; on the tests' engine (test-engine.ts) unless `env.DATABASE_URL` says.
 * In production mode it gets the App Store and SMS settings production refuses to start without,
 * and its database the migrate step a deployment runs before the servers (unless
 * `overrides.skipMigrateStep`). In demo mode without PLATFORM_* settings, as `npm start`, it starts
 * the stand-in platform (in process, on loopback, its keys in the data directory) and closes it
 * with the app.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  overrides: TestAppOverrides = {},
): Promise<FastifyInstance> {
  const temp = env.DATA_DIR === undefined ? await makeTempDataDir() : undefined;
  const dataDir = env.DATA_DIR ?? temp?.dataDir ?? '';
  const database = env.DATABASE_URL === undefined ? await testDatabaseEnv(dataDir) : {};
  const production = env.APP_MODE === 'production';
  const standIn =
    !production && !Object.keys(env).some((name) => name.startsWith('PLATFORM_'))
      ? await startStandInPlatform({ dataDir, imageScale: TEST_IMAGE_SCALE })
      : undefined;
  const config = loadConfig(
    {
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      ...database,
      ...standIn?.env,
      ...(production
        ? {
            ...PRODUCTION_APP_STORE_TEST_ENV,
            ...TEST_SMS_ENV,
            ...TEST_PHONE_ENV,
            ...TEST_APP_LINKS_ENV,
            ...TEST_PLATFORM_ENV,
          }
        : {}),
      ...env,
    },
    { webDistDir: WEB_DIST_DIR, dataDir },
  );
  const { logStream, prettyLogs, webBuild, skipMigrateStep, ...deps } = overrides;
  let app: FastifyInstance;
  try {
    // A production server never migrates on start: the deployment's migrate step comes first.
    if (production && skipMigrateStep !== true) await migrateFirst(config);
    app = await buildApp(config, {
      deps: {
        ...deps,
        platformImageLimits: deps.platformImageLimits ?? TEST_IMAGE_RETRY,
        webBuild: webBuild ?? (await loadTestWebBuild()),
        logging: logStream
          ? { stream: logStream, pretty: prettyLogs === true }
          : { enabled: false },
      },
    });
  } catch (error) {
    await standIn?.close();
    throw error;
  }
  if (standIn) {
    standIns.set(app, standIn);
    app.addHook('onClose', standIn.close);
  }
  if (temp) app.addHook('onClose', temp.remove);
  await app.ready();
  if (standIn) {
    // The demo community comes as on a demo server: the stand-in's signed events through the
    // events route, then the site's own records, then the images fetched (demo-community.ts).
    const db = await openDatabase(config.database);
    try {
      if (!(await demoCommunityArrived(db))) {
        await deliverDemoCommunity(app, standIn, db, TEST_IMAGE_SCALE);
      }
    } finally {
      await db.destroy();
    }
  }
  return app;
}
