import compress from '@fastify/compress';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { basename, join } from 'node:path';
import { constants as zlib } from 'node:zlib';
import { API_BASE_PATH, OPENAPI_PATH } from '@guquan/contract/site-paths';
import packageJson from '../package.json' with { type: 'json' };
import type { ShareKind } from '@guquan/contract/share-paths';
import type { Config } from './config/env.ts';
import { configuredPaths } from './config/data-paths.ts';
import { openDatabase, type Db } from './db/database.ts';
import { migrateToLatest } from './db/migrations.ts';
import { loadPhoneProtection } from './crypto/phone-keys.ts';
import type { PhoneProtection } from './crypto/phone-protection.ts';
import { reencryptPhones } from './db/phone-rotation.ts';
import { findServableImage } from './media/media-repository.ts';
import { mediaRoutes } from './media/media-routes.ts';
import { createResizedImages } from './media/resized-images.ts';
import { itemUniversalLink } from './app-links/item-universal-link.ts';
import { loadPictureFonts, type PictureFonts } from './pictures/picture-fonts.ts';
import { pictureRoutes, posterRoutes } from './pictures/picture-routes.ts';
import { createPictureStore } from './pictures/picture-store.ts';
import { createRenderQueue } from './pictures/render-queue.ts';
import { SHARE_REUSE_SECONDS } from './pages/page-cache-policy.ts';
import { recentShareReads } from './shares/recent-share-reads.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { shareRoutes } from './shares/share-routes.ts';
import { sessionRepository } from './auth/session-repository.ts';
import { membershipRoutes } from './membership/membership-routes.ts';
import { createAppStoreVerifier } from './membership/app-store-verifier.ts';
import { membershipService } from './membership/membership-service.ts';
import { appStoreRootCertificates } from './membership/root-certificates.ts';
import { designRoutes } from './designs/design-routes.ts';
import { designRepository } from './designs/design-repository.ts';
import { accountDeletionRoutes } from './account-deletion/account-deletion-routes.ts';
import {
  DELETION_JOB_INTERVAL_MS,
  runAccountDeletionJobAlone,
} from './account-deletion/deletion-job.ts';
import { deletionLosses } from './account-deletion/deletion-losses.ts';
import { cancelPendingRequest } from './account-deletion/deletion-requests.ts';
import {
  deliverQueuedTexts,
  outboxBacklog,
  TEXT_OUTBOX_INTERVAL_MS,
} from './account-deletion/text-outbox.ts';
import { aliyunSmsSender, type SmsSender } from './account-deletion/sms-sender.ts';
import { sessionRoutes } from './auth/session-routes.ts';
import type { DemoMode } from './demo/demo-mode.ts';
import type { SeedOptions } from './demo/seed/seed.ts';
import { createShareReader, shareRepositories } from './shares/share-reader.ts';
import { sql } from 'kysely';
import { FUNNEL_RETENTION_DAYS } from '@guquan/contract/funnel-events';
import { sendApiError } from './http/api-error.ts';
import { apiRoute } from './http/api-paths.ts';
import { handleClientError } from './http/client-errors.ts';
import { answerUnavailableWhileClosing } from './http/closing.ts';
import { installErrorHandling } from './http/error-handling.ts';
import { rewriteToOriginForm } from './http/request-target.ts';
import {
  SERVER_TIMEOUTS,
  serverTimeoutOptions,
  type ServerTimeouts,
} from './http/server-timeouts.ts';
import { pageRoutes } from './pages/page-routes.ts';
import type { RenderBudgetOptions } from './pages/render-budget.ts';
import { loadWebBuild, type WebBuild } from './pages/web-build.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { schedulePeriodicWork } from './plugins/periodic-work.ts';
import { registerStaticAssets } from './plugins/static-assets.ts';
import { healthRoutes } from './health/health-routes.ts';
import { loggerOptions, logOneLinePerRequest } from './http/logging.ts';
import { REQUEST_ID_HEADER, requestIdGenerator } from './http/request-id.ts';
import { createFunnelCounter } from './funnel/funnel-counter.ts';
import { addDays, funnelDayOf } from './funnel/funnel-days.ts';
import { removeFunnelDaysBefore } from './funnel/funnel-repository.ts';
import { funnelRoutes } from './funnel/funnel-routes.ts';
import { funnelVisitors, type FunnelVisitors } from './funnel/funnel-visitors.ts';
import { createMetrics, instrumentRequests, type Metrics } from './operations/metrics.ts';
import { attachOperations } from './operations/operations.ts';
import { createReadiness } from './operations/readiness.ts';
import { requestRouteLabel } from './operations/route-label.ts';
import { credentialCache } from './wechat/credential-cache.ts';
import { weChatApi } from './wechat/wechat-api.ts';
import { weChatRoutes } from './wechat/wechat-routes.ts';
import type { CountAppLinkEvent } from './app-links/app-link-events.ts';
import { handoffRoutes } from './app-links/handoff-routes.ts';
import { registerLinkDomain } from './app-links/link-domain.ts';

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
  /** Where log lines go instead of stdout (tests read them): JSON lines, or readable with `prettyLogs`. */
  logStream?: { write(line: string): void };
  prettyLogs?: boolean;
  /** How the first start seeds an empty database (tests draw small images). */
  seed?: SeedOptions;
  /** Replaces the SMS sender of the mode (tests: a failing provider). */
  smsSender?: SmsSender;
  /** Replaces the client timeouts (tests: a stalled request answered within a second). */
  timeouts?: ServerTimeouts;
  /** Replaces the pages' render budget per client (tests: a scan held back after a few). */
  renderBudget?: RenderBudgetOptions;
  /** Where link fallbacks, minted and claimed handoffs are counted (tests watch them). */
  countAppLinkEvent?: CountAppLinkEvent;
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
  metrics: Metrics | undefined,
): Promise<{ db: Db; phones: PhoneProtection }> {
  const paths = configuredPaths(config);
  const phones = await loadPhoneProtection(config.phoneKeys, paths.phoneKey);
  const db = await openDatabase(config.database, {
    onConnectionError: (error) => {
      app.log.warn({ err: error }, 'a database connection broke; the pool replaces it');
    },
    ...(metrics
      ? {
          onQueryError: metrics.database.queryFailed,
          onPool: (pool, size) => {
            metrics.watch({
              pool: () => ({
                size,
                total: pool.totalCount,
                idle: pool.idleCount,
                waiting: pool.waitingCount,
              }),
            });
          },
        }
      : {}),
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
  const logger =
    options.logger === false
      ? false
      : await loggerOptions(
          config,
          options.logStream
            ? { stream: options.logStream, pretty: options.prettyLogs === true }
            : undefined,
        );
  const prettyLogs =
    logger !== false &&
    (options.logStream ? options.prettyLogs === true : config.logFormat === 'pretty');
  const app = Fastify({
    logger,
    // Readable logs say one line per request (logOneLinePerRequest) instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: prettyLogs }),
    genReqId: requestIdGenerator(config.trustProxy),
    trustProxy: config.trustProxy,
    bodyLimit: BODY_LIMIT_BYTES,
    ...serverTimeoutOptions(options.timeouts ?? SERVER_TIMEOUTS),
    // Our own 503 while closing, in the site's shapes: http/closing.ts.
    return503OnClosing: false,
    // `GET http://host/path HTTP/1.1` is routed and handled as `/path` (http/request-target.ts).
    rewriteUrl: rewriteToOriginForm,
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
  // Every answer names its request, so a report can be matched to the logs.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  if (prettyLogs) logOneLinePerRequest(app);
  // Metrics exist where someone can read them: with the operators' listener.
  const metrics = config.ops ? createMetrics({ version: packageJson.version }) : undefined;

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
  const { db, phones } = await openData(app, config, demo, options.seed ?? {}, metrics);
  // Which version and build run is the operators' to know: in the log at start, never in a public
  // answer (health/health-routes.ts). The uptime is the process's (its start time).
  app.addHook('onListen', (done) => {
    app.log.info({ version: packageJson.version, build: build.buildId }, 'serving this version');
    done();
  });
  const shares = createShareReader(shareRepositories(db));
  // A poster's QR code holds the item's Universal Link on the app's link domain.
  const itemLink = (kind: ShareKind, id: string) =>
    itemUniversalLink(config.appLinks, { kind, id });
  // Share pages, their pictures and posters read each item at most once a second, through one reader.
  const recentShares = recentShareReads(shares, SHARE_REUSE_SECONDS * 1000);
  const sessions = sessionRepository(db, {
    // Logging in again during the cool-off withdraws a deletion request (privacy policy 11.5).
    onLogin: (trx, userId, at) => cancelPendingRequest(trx, userId, 'login', at),
  });
  const membership = membershipService({ db, verifier });
  const paths = configuredPaths(config);
  // Demo mode never sends a text: it keeps the code for the simulator to show.
  const sms = options.smsSender ?? demo?.sms ?? aliyunSmsSender(requireSmsConfig(config));
  // Every server schedules the job; on PostgreSQL one at a time runs it (the others skip).
  schedulePeriodicWork(app, {
    name: 'the account deletion job',
    intervalMs: DELETION_JOB_INTERVAL_MS,
    run: async () => {
      const run = await runAccountDeletionJobAlone(db, config.database.engine, {
        paths,
        sms,
        phones,
        log: (message, details) => {
          app.log.warn(details, message);
        },
      });
      if (run.ran) metrics?.deletionJob.succeeded(new Date(), run.value.deleted);
    },
  });

  // Texts owed to users (the deletion notice) are retried sooner than the hourly job runs.
  schedulePeriodicWork(app, {
    name: 'the text outbox',
    intervalMs: TEXT_OUTBOX_INTERVAL_MS,
    run: () =>
      deliverQueuedTexts(db, {
        sms,
        phones,
        now: new Date(),
        log: (message, details) => {
          app.log.warn(details, message);
        },
      }),
  });

  // The share funnel: sums in memory, written once a second and when the server closes.
  const funnelCounter = createFunnelCounter({
    db,
    ...(metrics ? { observer: metrics.funnel } : {}),
    log: (message, details) => {
      app.log.warn(details, message);
    },
  });
  app.addHook('onReady', () => {
    funnelCounter.start();
    return Promise.resolve();
  });
  // After the server stopped taking requests (Fastify closes it first), before the database goes.
  app.addHook('onClose', () => funnelCounter.stop());
  const visitors: FunnelVisitors = funnelVisitors(funnelCounter);
  // Daily rows older than 400 days go (any server may do it: deleting twice deletes nothing).
  schedulePeriodicWork(app, {
    name: 'removing old share-funnel days',
    intervalMs: DELETION_JOB_INTERVAL_MS,
    run: () => removeFunnelDaysBefore(db, addDays(funnelDayOf(new Date()), -FUNNEL_RETENTION_DAYS)),
  });

  await registerSecurityHeaders(app, config.mode);
  // Link fallbacks and handoffs are steps of the share funnel: counted with the pages' own events.
  const countAppLinkEvent: CountAppLinkEvent =
    options.countAppLinkEvent ??
    ((event, kind, item) => {
      if (!kind || !item) return;
      const channel = visitors.channelOfVisitor(item.userAgent);
      if (channel) visitors.countFunnelEvent({ event, kind, id: item.id, channel });
    });
  // The app's link domain takes its requests before any route of the site sees them.
  registerLinkDomain(app, {
    appLinks: config.appLinks,
    publicOrigin: config.publicOrigin,
    countEvent: countAppLinkEvent,
  });
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    // Pages are compressed per request: a fast brotli level, not the maximum the build uses.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  });
  installErrorHandling(app);
  answerUnavailableWhileClosing(app);
  const rateLimits = await registerRateLimits(app, config.redisUrl, {
    ...(metrics
      ? {
          onRefused: (request) => {
            metrics.http.rateLimitRefusals.inc({ route: request.routeOptions.url ?? 'unmatched' });
          },
        }
      : {}),
  });
  if (metrics) {
    instrumentRequests(app, metrics, requestRouteLabel(build.renderer.staticPagePaths()));
    metrics.watch({
      ...(rateLimits.redisUp ? { redisUp: rateLimits.redisUp } : {}),
      outbox: () => outboxBacklog(db, new Date()),
    });
  }
  await registerStaticAssets(app, build.assetsDir);
  await registerOpenApi(app);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(funnelRoutes, {
        visitors,
        ...(metrics
          ? {
              onBot: (events: number) => {
                metrics.funnel.dropped('bot', events);
              },
            }
          : {}),
      });
      await api.register(shareRoutes, { shares });
      await api.register(posterRoutes, { shares: recentShares, link: itemLink });
      await api.register(sessionRoutes, { sessions });
      await api.register(membershipRoutes, { sessions, membership });
      const designs = designRepository(db);
      await api.register(designRoutes, { designs, sessions });
      await api.register(accountDeletionRoutes, {
        db,
        losses: deletionLosses(db, designs),
        sessions,
        sms,
        phones,
      });
      await api.register(handoffRoutes, {
        db,
        appLinks: config.appLinks,
        countEvent: countAppLinkEvent,
      });
      // WeChat's JS-SDK signature exists only with the WeChat settings (docs/decisions/0012-wechat.md).
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
    resized: createResizedImages(paths.media, paths.mediaCache, {
      warn: (message, details) => {
        app.log.warn(details, message);
      },
      info: (message) => {
        app.log.info(message);
      },
    }),
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
    link: itemLink,
    drawingsPerMinute: options.pictureDrawingsPerMinute ?? PICTURE_DRAWINGS_PER_CLIENT_MINUTE,
  });

  await app.register(pageRoutes, {
    build,
    publicOrigin: config.publicOrigin,
    shares: recentShares,
    demo: demo !== undefined,
    wechat: config.wechat !== null,
    ...(options.renderBudget ? { renderBudget: options.renderBudget } : {}),
    linkOrigin: config.appLinks.origin,
    ...(metrics ? { observer: metrics.pages } : {}),
  });

  if (config.ops && metrics) {
    const readiness = createReadiness({
      database: () => sql`select 1`.execute(db),
      ...(rateLimits.redisUp ? { redisUp: rateLimits.redisUp } : {}),
    });
    await attachOperations(app, {
      metrics,
      readiness,
      db,
      publicOrigin: config.publicOrigin,
      logger: app.log.child({ listener: 'operators' }),
    });
  }
  return app;
}
