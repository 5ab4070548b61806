import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { platformRoutes, type PlatformObserver } from './platform-routes.ts';

export interface PlatformPluginOptions {
  db: Db;
  phones: PhoneProtection;
  /** The platform's settings, read per delivery: null until it is named (demo, before the stand-in). */
  platform: () => PlatformConfig | null;
  observer?: PlatformObserver;
}

/**
 * The platform's doors for its data (PRODUCT.md, "The app's platform"): its signed events in,
 * written into the site's copy. docs/decisions/0021-platform-events-in.md.
 */
export async function registerPlatform(
  app: FastifyInstance,
  options: PlatformPluginOptions,
): Promise<void> {
  await app.register(platformRoutes, { prefix: API_BASE_PATH, ...options });
}
