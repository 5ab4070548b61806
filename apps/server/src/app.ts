import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';
import { constants as zlib } from 'node:zlib';
import packageJson from '../package.json' with { type: 'json' };
import { registerAccountDeletion } from './account-deletion/account-deletion-plugin.ts';
import { cancelPendingRequest } from './account-deletion/deletion-requests.ts';
import { aliyunSmsSender, type SmsSender } from './account-deletion/sms-sender.ts';
import type { CountAppLinkEvent } from './app-links/app-link-events.ts';
import { registerOutbox } from './outbox/outbox-plugin.ts';
import type { PostDelivery } from './http/signed-deliveries.ts';
import { registerAppLinks } from './app-links/app-links-plugin.ts';
import { registerAuth } from './auth/auth-plugin.ts';
import type { Config } from './config/env.ts';
import { attachSecretRotation } from './config/secret-rotation.ts';
import { loadDemoMode, openData, requirePlatformConfig, requireSmsConfig } from './app-startup.ts';
import { reencryptPhones } from './db/phone-rotation.ts';
import { registerDesigns } from './designs/designs-plugin.ts';
import { registerFunnel } from './funnel/funnel-plugin.ts';
import { registerHealth } from './health/health-plugin.ts';
import { answerUnavailableWhileClosing } from './http/closing.ts';
import { installErrorHandling } from './http/error-handling.ts';
import { createFastifyServer, type ServerLogging } from './http/fastify-server.ts';
import type { ServerTimeouts } from './http/server-timeouts.ts';
import { registerMedia } from './media/media-plugin.ts';
import type { FetcherLimits } from './media/platform-image-fetcher.ts';
import { appStoreRootCertificates } from './membership/root-certificates.ts';
import { registerMembership } from './membership/membership-plugin.ts';
import { createMetrics } from './operations/metrics.ts';
import { registerOperations } from './operations/operations-plugin.ts';
import { registerPages } from './pages/pages-plugin.ts';
import type { RenderBudgetOptions } from './pages/render-budget.ts';
import { loadWebBuild, type WebBuild } from './pages/web-build.ts';
import { registerPictures } from './pictures/pictures-plugin.ts';
import { registerPlatform } from './platform/platform-plugin.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerRateLimits } from './plugins/rate-limits.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerStaticAssets } from './plugins/static-assets.ts';
import { registerShares } from './shares/shares-plugin.ts';
import { registerWeChat } from './wechat/wechat-plugin.ts';

/** What only tests replace; a server started by server.ts has none of it. */
export interface AppDeps {
  /** A web build already loaded (tests share one); otherwise read from config.webDistDir. */
  webBuild?: WebBuild;
  /** The logger silenced, or writing where a test reads it. */
  logging?: ServerLogging;
  /** Replaces the SMS sender of the mode (tests: a failing provider). */
  smsSender?: SmsSender;
  /** How the outbox posts the platform's events (a test's receiver); HTTP to PLATFORM_EVENTS_URL otherwise. */
  postPlatformEvents?: PostDelivery;
  /** Replaces the client timeouts (tests: a stalled request answered within a second). */
  timeouts?: ServerTimeouts;
  /** Replaces the pages' render budget per client (tests: a scan held back after a few). */
  renderBudget?: RenderBudgetOptions;
  /** Where link fallbacks, minted and claimed handoffs are counted (tests watch them). */
  countAppLinkEvent?: CountAppLinkEvent;
  /** Replaces how many new pictures a client may have drawn per minute (tests: a few). */
  pictureDrawingsPerMinute?: number;
  /** Replaces some limits of the platform's image fetcher (tests: short leases and back-off). */
  platformImageLimits?: Partial<FetcherLimits>;
  /**
   * Replaces how long a redemption's request waits for the platform, 1.5 s (tests of what
   * concurrent redemptions come to, where the codes must not depend on the machine's speed).
   */
  redemptionAnswerWithinMs?: number;
}

export interface AppOptions {
  deps?: AppDeps;
}

/**
 * Builds the whole server without listening: a list of registrations, each feature's entry
 * (`<feature>/<feature>-plugin.ts`) owning its routes, hooks and periodic work. The order:
 * 1. What every answer goes through, before any route exists: the security headers (their hook
 *    first, so every answer carries them), compression, the error shape, the rate limiter and
 *    the OpenAPI collector (these three act on each route as it is added).
 * 2. The funnel, then the app's link domain: its hook takes the link domain's requests before any
 *    route of the site, and counts its fallbacks in the funnel. Then the 503 while closing and
 *    the requests' metrics, whose hooks must come after the link domain's (it answers its own).
 * 3. The features, in any order among themselves but for what one hands another (who the user
 *    is to the in-app features, designs to account deletion, the share reader to pictures and pages).
 * 4. The pages last: their wildcard takes what is left.
 */
export async function buildApp(
  config: Config,
  { deps = {} }: AppOptions = {},
): Promise<FastifyInstance> {
  const platform = requirePlatformConfig(config);
  const app = await createFastifyServer(config, { logging: deps.logging, timeouts: deps.timeouts });
  // Metrics exist where someone can read them: with the operators' listener.
  const metrics = config.ops ? createMetrics({ version: packageJson.version }) : undefined;
  const demo = await loadDemoMode(config);
  // Apple's roots first: a production server without them stops here, before opening anything.
  // Demo mode trusts the StoreKit test root instead.
  const appStoreRoots = demo ? demo.appStoreRoots : appStoreRootCertificates(config);
  const build = deps.webBuild ?? (await loadWebBuild(config.webDistDir));
  const { db, phones, paths } = await openData(app, config, {
    demo,
    platform,
    metrics,
  });
  const reencrypt = () => reencryptPhones(db, phones);
  attachSecretRotation(app, { platform, phones, reencryptPhones: reencrypt, log: app.log });
  // Which version and build run is the operators' to know: in the log at start, never in a public
  // answer (health/health-routes.ts).
  app.addHook('onListen', (done) => {
    app.log.info({ version: packageJson.version, build: build.buildId }, 'serving this version');
    done();
  });

  // 1. What every answer goes through.
  await registerSecurityHeaders(app, config.mode);
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    // Pages are compressed per request: a fast brotli level, not the maximum the build uses.
    brotliOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } },
  });
  installErrorHandling(app);
  const rateLimits = await registerRateLimits(app, config.redisUrl, {
    onRefused: metrics
      ? (request) => {
          metrics.http.rateLimitRefusals.inc({ route: request.routeOptions.url ?? 'unmatched' });
        }
      : undefined,
  });
  await registerOpenApi(app);

  // 2. The funnel and the link domain; closing and metrics after it.
  const funnel = await registerFunnel(app, { db, observer: metrics?.funnel });
  await registerAppLinks(app, {
    db,
    appLinks: config.appLinks,
    publicOrigin: config.publicOrigin,
    funnel,
    countEvent: deps.countAppLinkEvent,
    budget: rateLimits.budget,
  });
  answerUnavailableWhileClosing(app);
  await registerOperations(app, {
    db,
    metrics,
    rateLimits,
    staticPagePaths: build.renderer.staticPagePaths(),
    publicOrigin: config.publicOrigin,
  });
  await registerStaticAssets(app, build.assetsDir);

  // 3. The features.
  // A demo server says `starting` until the stand-in's demo community has all come.
  await registerHealth(app, { ready: demo?.readiness(db, platform) });
  const { shares, shelves } = await registerShares(app, { db });
  const auth = registerAuth(app, {
    db,
    platform,
    // Logging in again during the cool-off withdraws a deletion request (privacy policy 11.5).
    onLogin: (trx, userId, at) => cancelPendingRequest(trx, userId, 'login', at),
  });
  await registerMembership(app, { db, config, appStoreRoots, auth });
  const designs = await registerDesigns(app, {
    db,
    auth,
    platform,
    answerWithinMs: deps.redemptionAnswerWithinMs,
  });
  // Demo mode never sends a text: it keeps the code for the simulator to show.
  const sms = deps.smsSender ?? demo?.sms ?? aliyunSmsSender(requireSmsConfig(config));
  await registerAccountDeletion(app, {
    db,
    engine: config.database.engine,
    paths,
    phones,
    sms,
    auth,
    designs,
    onJobDone: metrics?.deletionJob.succeeded,
  });
  // Everything the site owes to others (texts to users, events to the platform), delivered.
  registerOutbox(app, {
    db,
    sms,
    phones,
    platform,
    observer: metrics?.outbox,
    postEvents: deps.postPlatformEvents,
  });
  await registerWeChat(app, { db, wechat: config.wechat, publicOrigin: config.publicOrigin });
  // The simulator's log-in, App Store and SMS stand-ins exist in demo mode only: production has
  // no such paths at all.
  if (demo) await demo.registerRoutes(app, { db, auth, phones, platform });
  const media = await registerMedia(app, {
    db,
    paths,
    platform,
    observer: metrics?.platformImages,
    fetcherLimits: deps.platformImageLimits,
  });
  // The platform's events in. A delivery applied wakes this server's image fetcher.
  await registerPlatform(app, {
    db,
    phones,
    platform,
    observer: metrics?.platform,
    onApplied: () => {
      media.imagesWaiting();
    },
  });
  await registerPictures(app, {
    db,
    paths,
    media,
    shares,
    appLinks: config.appLinks,
    drawingsPerMinute: deps.pictureDrawingsPerMinute,
  });

  // 4. The pages.
  await registerPages(app, {
    build,
    publicOrigin: config.publicOrigin,
    shares,
    shelves,
    demo: demo !== undefined,
    wechat: config.wechat !== null,
    renderBudget: deps.renderBudget,
    linkOrigin: config.appLinks.origin,
    observer: metrics?.pages,
  });
  return app;
}
