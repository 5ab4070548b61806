import { X509Certificate } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { API_BASE_PATH } from '@guquan/contract/site-paths';
import type { Authenticator } from '../auth/user-authenticator.ts';
import type { AppStoreConfig } from '../config/env.ts';
import type { PlatformConfig } from '../config/platform-config.ts';
import type { PhoneProtection } from '../crypto/phone-protection.ts';
import type { Db } from '../db/database.ts';
import { isStandIn } from './demo-community-arrival.ts';
import { demoDataReadiness } from './demo-readiness.ts';
import { demoPlatformRoutes } from './demo-platform-routes.ts';
import { demoRoutes } from './demo-routes.ts';
import { demoSmsRoutes } from './demo-sms-routes.ts';
import { demoSmsSender, type DemoSmsSender } from './demo-sms-sender.ts';
import { demoStoreKitRoutes } from './demo-storekit-routes.ts';
import { receiveDemoCommunityIfEmpty } from './demo-community-arrival.ts';
import { createStoreKitSigner } from './storekit-signer.ts';
import { loadCertificateChain } from './test-chain.ts';

/**
 * Everything a demo server has that a production server must not: the demo community asked of
 * the stand-in platform on the first start, the StoreKit TEST root trusted in place of Apple's, the SMS stand-in, and the
 * bridge simulator's routes (log-in, App Store, the last SMS code, the stand-in platform's
 * ledger, events received and faults). app.ts loads this module with
 * a dynamic import in demo mode only, so the bundle puts it in a chunk of its own that a
 * production server never loads (build.mjs, demo-seam.test.ts).
 */
export interface DemoMode {
  /** The roots App Store signatures must chain to: the StoreKit test root. */
  appStoreRoots: Buffer[];
  /** Keeps each code for the simulator to show instead of sending a text. */
  sms: DemoSmsSender;
  /** On the stand-in platform with an empty copy: the demo community asked for once listening. */
  receiveCommunityIfEmpty: typeof receiveDemoCommunityIfEmpty;
  /**
   * On the stand-in platform: whether the demo data has all come (`/health` says `starting`
   * until it has); undefined on a real platform (its data is never seeded).
   */
  readiness(db: Db, platform: PlatformConfig): (() => Promise<boolean>) | undefined;
  /** Registers the simulator's routes under the API prefix. */
  registerRoutes(
    app: FastifyInstance,
    deps: { db: Db; auth: Authenticator; phones: PhoneProtection; platform: PlatformConfig },
  ): Promise<void>;
}

export function demoMode(appStore: AppStoreConfig): DemoMode {
  const chain = loadCertificateChain();
  const sms = demoSmsSender();
  return {
    appStoreRoots: [new X509Certificate(chain.root).raw],
    sms,
    receiveCommunityIfEmpty: receiveDemoCommunityIfEmpty,
    readiness: (db, platform) => (isStandIn(platform) ? demoDataReadiness(db) : undefined),
    async registerRoutes(app, { db, auth, phones, platform }) {
      const prefix = API_BASE_PATH;
      await app.register(demoRoutes, { prefix, db, platform });
      await app.register(demoPlatformRoutes, { prefix, platform });
      await app.register(demoStoreKitRoutes, {
        prefix,
        db,
        auth,
        signer: createStoreKitSigner(chain, appStore),
      });
      await app.register(demoSmsRoutes, { prefix, db, auth, sms, phones });
    },
  };
}
