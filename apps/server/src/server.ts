import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/env.ts';
import { WebBuildMissingError } from './pages/web-build.ts';

/** Starts the server: read the configuration, build the app, listen, and close gracefully. */
const SHUTDOWN_GRACE_MS = 10_000;
// apps/server/src/server.ts and its bundle apps/server/dist/server.js sit at the same depth.
const DEFAULT_WEB_DIST_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

async function main(): Promise<void> {
  const config = loadConfig(process.env, DEFAULT_WEB_DIST_DIR);
  const app = await buildApp(config);
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
  await app.listen({ host: config.host, port: config.port });
  app.log.info(
    { mode: config.mode, url: `${config.publicOrigin}/anime_merch_web/website` },
    '谷圈 web is ready',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof WebBuildMissingError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
