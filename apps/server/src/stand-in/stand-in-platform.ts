import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { STAND_IN_ISSUER } from '../demo/stand-in-client.ts';
import type { StandInContext, StandInRoutes } from './stand-in-context.ts';
import { loadStandInKeys, type StandInKeys } from './stand-in-keys.ts';
import { loadStandInSecrets, type StandInSecrets } from './stand-in-secrets.ts';
import { demoTokenRoutes, jwksRoutes } from './stand-in-token-routes.ts';
import { demoMediaRoutes } from './demo-media.ts';
import { demoCommunityRoutes } from './demo-community-routes.ts';
import { loadPointsLedger, type PointsLedger, type PointsLedgerOptions } from './points-ledger.ts';
import { pointsLedgerRoutes } from './points-ledger-routes.ts';
import { eventsReceiverRoutes } from './events-receiver.ts';

export const STAND_IN_JWKS_PATH = '/.well-known/jwks.json';

/**
 * The stand-in's routes. To add a part of the platform (the demo community's deliveries, its
 * media origin, the points ledger, the events receiver), write a `StandInRoutes` plugin in its
 * own file of this folder and add it to this list (or pass it in `extraRoutes` from a test):
 * each gets the same `StandInContext` and registers its own paths.
 */
export const STAND_IN_ROUTES: readonly StandInRoutes[] = [
  jwksRoutes,
  demoTokenRoutes,
  demoMediaRoutes,
  demoCommunityRoutes,
  pointsLedgerRoutes,
  eventsReceiverRoutes,
];

export interface StandInOptions {
  /** Where its keys and secrets are kept (`<dataDir>/stand-in/`), created on the first start. */
  dataDir: string;
  /** Loopback only: the stand-in has no authentication of its own beyond its API token. */
  host?: string;
  /** 0 (the default): a free port. */
  port?: number;
  extraRoutes?: readonly StandInRoutes[];
  /** The demo pictures' size relative to their natural size: 1 (the default), less in tests. */
  imageScale?: number;
  /** Tests only: hooks of the points ledger. */
  ledger?: PointsLedgerOptions;
}

export interface StandInPlatform {
  origin: string;
  /** The PLATFORM_* settings pointing at it, as loadConfig reads them. */
  env: Record<string, string>;
  keys: StandInKeys;
  secrets: StandInSecrets;
  /** Its points ledger: tests read its debits and set balances. */
  ledger: PointsLedger;
  close: () => Promise<void>;
}

/** The directory the stand-in keeps its files in. */
export function standInDir(dataDir: string): string {
  return join(dataDir, 'stand-in');
}

/** The settings a site uses to speak to the stand-in at `origin`. */
export function standInEnv(origin: string, secrets: StandInSecrets): Record<string, string> {
  return {
    PLATFORM_WEBHOOK_SECRETS: secrets.webhookSecret,
    PLATFORM_ISSUER: STAND_IN_ISSUER,
    PLATFORM_JWKS_URL: `${origin}${STAND_IN_JWKS_PATH}`,
    PLATFORM_MEDIA_ORIGINS: origin,
    PLATFORM_API_URL: origin,
    PLATFORM_API_TOKEN: secrets.apiToken,
    PLATFORM_EVENTS_URL: `${origin}/v1/events`,
    PLATFORM_EVENTS_SECRET: secrets.eventsSecret,
  };
}

/**
 * The stand-in platform (PRODUCT.md, "The app's platform"): an HTTP server on loopback that
 * speaks the platform's protocol for real, with its own ES256 signing keys and secrets kept under
 * `<dataDir>/stand-in/`. Demo mode runs it when no PLATFORM_* setting is given (server.ts starts
 * it as a child process through stand-in-cli.ts; the tests start it in process).
 */
export async function startStandInPlatform({
  dataDir,
  host = '127.0.0.1',
  port = 0,
  extraRoutes = [],
  imageScale = 1,
  ledger: ledgerOptions,
}: StandInOptions): Promise<StandInPlatform> {
  const dir = standInDir(dataDir);
  const keys = await loadStandInKeys(join(dir, 'signing-keys.json'));
  const secrets = await loadStandInSecrets(join(dir, 'secrets.json'));
  const ledger = await loadPointsLedger(dataDir, ledgerOptions);
  // Closing ends every connection: a client may leave one open that never sent a request (after
  // giving up on a delivery the receiver held), which would otherwise keep the close waiting.
  const app: FastifyInstance = Fastify({ logger: false, forceCloseConnections: true });
  let origin = '';
  const context: StandInContext = {
    dataDir,
    imageScale,
    issuer: STAND_IN_ISSUER,
    keys,
    secrets,
    origin: () => origin,
    ledger,
  };
  for (const routes of [...STAND_IN_ROUTES, ...extraRoutes]) await app.register(routes, context);
  await app.listen({ host, port });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  origin = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return {
    origin,
    env: standInEnv(origin, secrets),
    keys,
    secrets,
    ledger,
    close: () => app.close(),
  };
}
