import type { FastifyInstance } from 'fastify';
import { configuredPaths, type DataPaths } from './config/data-paths.ts';
import type { Config } from './config/env.ts';
import type { PlatformConfig } from './config/platform-config.ts';
import { loadPhoneProtection, type RotatingPhoneProtection } from './crypto/phone-keys.ts';
import { openDatabase, type Db } from './db/database.ts';
import { reencryptPhones } from './db/phone-rotation.ts';
import { prepareSchema } from './db/schema-status.ts';
import type { DemoMode } from './demo/demo-mode.ts';
import type { Metrics } from './operations/metrics.ts';

/*
 * What buildApp (app.ts) opens and checks before it registers anything: the demo pieces in demo
 * mode, the database and the phone keys, and the settings a hand-made Config could lack.
 */

/**
 * The demo pieces (demo/demo-mode.ts), loaded in demo mode only. The dynamic import is the seam:
 * the bundle keeps the demo code, the test chain's reader and the seed in a chunk of their own,
 * which a production server never loads.
 */
export async function loadDemoMode(config: Config): Promise<DemoMode | undefined> {
  if (config.mode !== 'demo') return undefined;
  const { demoMode } = await import('./demo/demo-mode.ts');
  return demoMode(config.appStore);
}

/**
 * The database (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL): migrated in demo mode, checked
 * in production, which refuses a database behind the code (db/schema-status.ts). On the first
 * start of a demo server on the stand-in platform, the demo community is asked for (it arrives as
 * the platform's events). A production server never gets demo users.
 */
export async function openData(
  app: FastifyInstance,
  config: Config,
  { demo, platform, metrics }: { demo?: DemoMode; platform: PlatformConfig; metrics?: Metrics },
): Promise<{ db: Db; phones: RotatingPhoneProtection; paths: DataPaths }> {
  const paths = configuredPaths(config);
  const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
  const db = await openDatabase(config.database, {
    onConnectionError: (error) => {
      app.log.warn({ err: error }, 'a database connection broke; the pool replaces it');
    },
    onQueryError: metrics?.database.queryFailed,
    onPool: metrics
      ? (pool, size) => {
          metrics.watch({
            pool: () => ({
              size,
              total: pool.totalCount,
              idle: pool.idleCount,
              waiting: pool.waitingCount,
            }),
          });
        }
      : undefined,
  });
  try {
    await prepareSchema(db, { mode: config.mode, context: { phones }, log: app.log });
  } catch (error) {
    // The app is never returned, so never closed: let the database go now (a test's PostgreSQL
    // database cannot be dropped while a connection is open).
    await db.destroy();
    throw error;
  }
  app.addHook('onClose', () => db.destroy());
  const rotated = await reencryptPhones(db, phones);
  if (rotated > 0) app.log.info({ rotated }, 'phone numbers re-encrypted with the current key');
  // A demo server on the stand-in platform receives the demo community through the platform's
  // doors once it listens, when its copy is empty; with PLATFORM_* given it seeds nothing.
  if (demo && (await demo.receiveCommunityIfEmpty(app, { db, paths, platform }))) {
    app.log.info({ dataDir: config.dataDir }, 'the copy is empty: the demo community will come');
  }
  return { db, phones, paths };
}

export function requirePlatformConfig(config: Config) {
  // loadConfig refuses production without it; in demo mode without PLATFORM_* settings, server.ts
  // (and buildTestApp) start the stand-in platform and fill these in before building the app.
  if (!config.platform) {
    throw new Error('The app needs the platform settings: start the stand-in platform first');
  }
  return config.platform;
}

export function requireSmsConfig(config: Config) {
  // loadConfig refuses production without it; this only guards a hand-made Config.
  if (!config.sms) throw new Error('Production needs the SMS provider configuration');
  return config.sms;
}
