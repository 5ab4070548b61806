import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { Config } from '../config/env.ts';
import type { Db } from '../db/database.ts';
import { createAppStoreVerifier } from './app-store-verifier.ts';
import { membershipRoutes } from './membership-routes.ts';
import { membershipService } from './membership-service.ts';

export interface MembershipPluginOptions {
  db: Db;
  config: Pick<Config, 'appStore' | 'mode'>;
  /** The roots Apple's signatures must chain to (demo mode: the StoreKit test root). */
  appStoreRoots: Buffer[];
  auth: Authenticator;
}

/**
 * Memberships bought on the iOS page (docs/decisions/0015-one-subscription-per-member.md): the
 * purchases, restores and App Store Server Notifications, verified with Apple's library.
 */
export async function registerMembership(
  app: FastifyInstance,
  { db, config, appStoreRoots, auth }: MembershipPluginOptions,
): Promise<void> {
  // Production also asks Apple's OCSP responders whether a certificate was revoked; when they
  // cannot be reached the purchase is answered 503 and stays unfinished in the app, to come back.
  const verifier = createAppStoreVerifier(config.appStore, appStoreRoots, {
    onlineChecks: config.mode === 'production',
  });
  const membership = membershipService({ db, verifier });
  await app.register(membershipRoutes, { prefix: API_BASE_PATH, auth, membership });
}
