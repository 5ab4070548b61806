import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { basename, join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import { API_BASE_PATH, OPENAPI_PATH } from '@guquan/contract/site-paths';
import packageJson from '../package.json' with { type: 'json' };
import type { Config } from './config/env.ts';
import { configuredPaths } from './config/data-paths.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { loadPhoneProtection } from './crypto/phone-keys.ts';
import type { PhoneProtection } from './crypto/phone-protection.ts';
import { reencryptPhones } from './crypto/phone-rotation.ts';
import { JOB_LOCKS, runAlone } from './db/run-alone.ts';
import { findServableImage } from './media/media-repository.ts';
import { mediaRoutes } from './media/media-routes.ts';
import { createResizedImages } from './media/resized-images.ts';
import { itemUniversalLink } from './pictures/item-link.ts';
import { loadPictureFonts, type PictureFonts } from './pictures/picture-fonts.ts';
import { pictureRoutes, posterRoutes } from './pictures/picture-routes.ts';
import { createPictureStore } from './pictures/picture-store.ts';
import { createRenderQueue } from './pictures/render-queue.ts';
import { SHARE_REUSE_SECONDS } from './pages/page-cache-policy.ts';
import { recentShareReads } from './shares/recent-share-reads.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { shareRoutes } from './shares/share-routes.ts';
import { sessionStore } from './auth/session-store.ts';
import { membershipRoutes } from './membership/membership-routes.ts';
import { createAppStoreVerifier } from './membership/app-store-verifier.ts';
import { membershipService } from './membership/membership-service.ts';
import { appStoreRootCertificates } from './membership/root-certificates.ts';
import { designRoutes } from './designs/design-routes.ts';
import { designRepository } from './designs/design-repository.ts';
import { accountDeletionRoutes } from './account-deletion/account-deletion-routes.ts';
import { runAccountDeletionJob } from './account-deletion/deletion-job.ts';
import { cancelPendingRequest } from './account-deletion/deletion-requests.ts';
import { scheduleAccountDeletionJob } from './account-deletion/deletion-schedule.ts';
import { deliverQueuedTexts, TEXT_OUTBOX_INTERVAL_MS } from './account-deletion/text-outbox.ts';
import { aliyunSmsSender, type SmsSender } from './account-deletion/sms-sender.ts';
import { sessionRoutes } from './auth/session-routes.ts';
import type { DemoMode } from './demo/demo-mode.ts';
import type { SeedOptions } from './demo/seed/seed.ts';
import { createShareReader, shareRepositories } from './shares/share-reader.ts';
import { sendApiError } from './http/api-error.ts';
import { apiRoute } from './http/api-paths.ts';
import { handleClientError } from './http/client-errors.ts';
import { answerUnavailableWhileClosing } from './http/closing.ts';
import { installErrorHandling } from './http/error-handling.ts';
import {
  SERVER_TIMEOUTS,
  serverTimeoutOptions,
  type ServerTimeouts,
} from './http/server-timeouts.ts';
import { pageRoutes } from './pages/page-routes.ts';
import { loadWebBuild, type WebBuild } from './pages/web-build.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStaticAssets } from './plugins/static-assets.ts';
import { healthRoutes } from './health/health-routes.ts';
import { credentialCache } from './wechat/credential-cache.ts';
import { weChatApi } from './wechat/wechat-api.ts';
import { weChatRoutes } from './wechat/wechat-routes.ts';

const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Pictures drawn at once per server (a drawing keeps a core busy for tens of milliseconds), how
 * many may wait behind them, and how many new ones a client may start per minute (a scan of ids
 * cannot keep the CPU busy).
 */
const PICTURE_DRAWINGS_AT_ONCE = 2;
const PICTURE_DRAWINGS_WAITING = 128;
const PICTURE_DRAWINGS_PER_CLIENT_MINUTE = 60;

export interface AppOptions {
  /** A web build already loaded (tests share one); otherwise read from config.webDistDir. */
  webBuild?: WebBuild;
  /** false silences the logger (tests). */
  logger?: boolean;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
  /** How the first start seeds an empty database (tests draw small images). */
  seed?: SeedOptions;
  /** Replaces the SMS sender of the mode (tests: a failing provider). */
  smsSender?: SmsSender;
  /** Replaces the client timeouts (tests: a stalled request answered within a second). */
  timeouts?: ServerTimeouts;
  /** Replaces how many new pictures a client may have drawn per minute (tests: a few). */
  pictureDrawingsPerMinute?: number;
}

/**
 * The demo pieces (demo/demo-mode.ts), loaded in demo mode only. The dynamic import is the seam:
 * the bundle keeps the demo code, the test chain's reader and the seed in a chunk of their own,
 * which a production server never loads.
 */
async function loadDemoMode(config: Config): Promise<DemoMode | undefined> {
  if (config.mode !== 'demo') return undefined;
  const { demoMode } = await import('./demo/demo-mode.ts');
  return demoMode(config.appStore);
}

/**
 * The database (SQLite in DATA_DIR, or PostgreSQL at DATABASE_URL), brought to the latest
 * version; on the first start of a demo server, filled with the demo community. A production server never gets demo users: it starts empty.
 */
async function openData(
  app: FastifyInstance,
  config: Config,
  demo: DemoMode | undefined,
  seed: SeedOptions,
): Promise<{ db: Db; phones: PhoneProtection }> {
  const paths = configuredPaths(config);
  const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
  const db = await openDatabase(config.database, {
    onIdleError: (error) => {
      app.log.warn({ err: error }, 'a database connection broke; the pool replaces it');
    },
  });
  app.addHook('onClose', () => db.destroy());
  await migrateToLatest(db, { phones });
  const rotated = await reencryptPhones(db, phones);
  if (rotated > 0) app.log.info({ rotated }, 'phone numbers re-encrypted with the current key');
  if (demo) {
    const started = performance.now();
    if (await demo.seedIfEmpty(db, paths, phones, seed)) {
      app.log.info(
        { dataDir: config.dataDir, ms: Math.round(performance.now() - started) },
        'seeded the demo data',
      );
    }
  }
  return { db, phones };
}

function requireSmsConfig(config: Config) {
  // loadConfig refuses production without it; this only guards a hand-made Config.
  if (!config.sms) throw new Error('Production needs the SMS provider configuration');
  return config.sms;
}

/**
 * Builds the whole server without listening. The order matters: the security headers and
 * compression first, so every later response (assets, API, pages, errors) carries them; then the
 * static assets; the OpenAPI collector before any route it describes; then the API and media;
 * the page routes last, as their wildcard takes what is left.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.headers.cookie'],
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    ...serverTimeoutOptions(options.timeouts ?? SERVER_TIMEOUTS),
    // Our own 503 while closing, in the site's shapes: http/closing.ts.
    return503OnClosing: false,
    // Long enough that an oversized id still reaches its route and is answered as invalid there.
    routerOptions: { maxParamLength: 1000 },
    // Errors the router raises before any handler (a malformed percent-encoding) get the one
    // error shape too, without echoing the URL back.
    frameworkErrors: (_error, _request, reply) => {
      sendApiError(reply, 400, 'bad_request', 'The address is malformed.');
    },
    // And those Node's parser raises before any request exists (bad header, long URL, timeout).
    clientErrorHandler: handleClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const demo = await loadDemoMode(config);
  // Apple's roots first: a production server without them stops here, before opening anything.
  // Demo mode trusts the StoreKit test root instead.
  const roots = demo ? demo.appStoreRoots : appStoreRootCertificates(config);
  // Production also asks Apple's OCSP responders whether a certificate was revoked; when they
  // cannot be reached the purchase is answered 503 and stays unfinished in the app, to come back.
  const verifier = createAppStoreVerifier(config.appStore, roots, {
    onlineChecks: config.mode === 'production',
  });
  const build = options.webBuild ?? (await loadWebBuild(config.webDistDir));
  const { db, phones } = await openData(app, config, demo, options.seed ?? {});
  const shares = createShareReader(shareRepositories(db));
  // Pictures and posters read an item at most once a second, as the share pages do.
  const recentShares = recentShareReads(shares, SHARE_REUSE_SECONDS * 1000);
  const sessions = sessionStore(db, {
    // Logging in again during the cool-off withdraws a deletion request (privacy policy 11.5).
    onLogin: (trx, userId, at) => cancelPendingRequest(trx, userId, 'login', at),
  });
  const membership = membershipService({ db, verifier });
  const paths = configuredPaths(config);
  // Demo mode never sends a text: it keeps the code for the simulator to show.
  const sms = options.smsSender ?? demo?.sms ?? aliyunSmsSender(requireSmsConfig(config));
  // Every server schedules the job; on PostgreSQL one at a time runs it (the others skip).
  scheduleAccountDeletionJob(app, () =>
    runAlone(db, config.database.engine, JOB_LOCKS.accountDeletion, () =>
      runAccountDeletionJob(db, new Date(), {
        paths,
        sms,
        phones,
        log: (message, details) => {
          app.log.warn(details, message);
        },
      }),
    ),
  );

  // Texts owed to users (the deletion notice) are retried sooner than the hourly job runs.
  scheduleAccountDeletionJob(
    app,
    () =>
      deliverQueuedTexts(db, {
        sms,
        phones,
        now: new Date(),
        log: (message, details) => {
          app.log.warn(details, message);
        },
      }),
    TEXT_OUTBOX_INTERVAL_MS,
  );

  await registerSecurityHeaders(app, config.mode);
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    // Pages are compressed per request: a fast brotli level, not the maximum the build uses.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  });
  installErrorHandling(app);
  answerUnavailableWhileClosing(app);
  await registerRateLimits(app, config.redisUrl);
  await registerStaticAssets(app, build.assetsDir);
  await registerOpenApi(app, packageJson.version);

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { version: packageJson.version });
      await api.register(shareRoutes, { shares });
      await api.register(posterRoutes, { shares: recentShares, link: itemUniversalLink });
      await api.register(sessionRoutes, { sessions });
      await api.register(membershipRoutes, { sessions, membership });
      await api.register(designRoutes, { designs: designRepository(db), sessions });
      await api.register(accountDeletionRoutes, { db, sessions, sms, phones });
      // WeChat's JS-SDK signature exists only with the WeChat settings (decision 12).
      if (config.wechat) {
        const tickets = credentialCache({
          db,
          api: weChatApi(config.wechat),
          appId: config.wechat.appId,
        });
        await api.register(weChatRoutes, {
          wechat: config.wechat,
          tickets,
          publicOrigin: config.publicOrigin,
        });
      }
      // The simulator's log-in, App Store and SMS stand-ins exist in demo mode only: production
      // has no such paths at all.
      if (demo) await demo.registerRoutes(api, { db, sessions, sms: demo.sms, phones });
      api.get(apiRoute(OPENAPI_PATH), { schema: { hide: true } }, (_request, reply) =>
        reply.header('cache-control', 'no-cache').send(app.swagger()),
      );
      // Last in the prefix: whatever no route above took.
      api.all('/*', { schema: { hide: true } }, (_request, reply) =>
        sendApiError(reply, 404, 'not_found', 'There is no such API endpoint.'),
      );
    },
    { prefix: API_BASE_PATH },
  );
  await app.register(mediaRoutes, {
    findImage: (publicId) => findServableImage(db, publicId),
    resized: createResizedImages(paths.media, paths.mediaCache),
  });
  let fonts: PictureFonts | undefined;
  await app.register(pictureRoutes, {
    shares: recentShares,
    // The store reports a disk that refuses pictures once, until a write succeeds again.
    store: createPictureStore(paths.mediaCache, (error) => {
      app.log.warn({ err: error }, 'pictures cannot be kept on disk: sent from memory instead');
    }),
    queue: createRenderQueue(PICTURE_DRAWINGS_AT_ONCE, PICTURE_DRAWINGS_WAITING),
    fonts: () => (fonts ??= loadPictureFonts()),
    photos: async (imageId) => {
      const image = await findServableImage(db, imageId);
      // The name comes from our own database; basename() keeps even a bad row inside the folder.
      return image && join(paths.media, basename(image.fileName));
    },
    link: itemUniversalLink,
    drawingsPerMinute: options.pictureDrawingsPerMinute ?? PICTURE_DRAWINGS_PER_CLIENT_MINUTE,
  });

  await app.register(pageRoutes, {
    build,
    publicOrigin: config.publicOrigin,
    shares,
    demo: demo !== undefined,
    wechat: config.wechat !== null,
  });
  return app;
}
