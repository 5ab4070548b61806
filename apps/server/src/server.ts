import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { defaultPaths } from './config/default-paths.ts';
import { ConfigError, loadConfig, type Config } from './config/env.ts';
import { readPlatformConfig } from './config/platform-config.ts';
import { secretFilesOf } from './config/secret-files.ts';
import { reloadSecretsOnChange } from './config/secret-reload.ts';
import { DatabaseConnectionError } from './db/database.ts';
import { listenAlsoOn } from './http/extra-listener.ts';
import { portsTaken, type PlannedPort } from './http/ports-taken.ts';
import { MigrationError } from './db/migrations.ts';
import { SchemaBehindError } from './db/schema-status.ts';
import { WebBuildMissingError } from './pages/web-build.ts';
import { operationsOf } from './operations/operations.ts';
import { startStandInProcess, type StandInProcess } from './stand-in/stand-in-process.ts';

/** Starts the server: read the configuration, build the app, listen, and close gracefully. */
const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Demo mode without PLATFORM_* settings: the stand-in platform in a process of its own on
 * loopback (dist/stand-in.js, its keys in DATA_DIR), and the config filled with its settings.
 */
async function withStandIn(config: Config): Promise<{ config: Config; standIn?: StandInProcess }> {
  if (config.mode !== 'demo' || config.platform !== null) return { config };
  const standIn = await startStandInProcess({
    script: fileURLToPath(new URL('./stand-in.js', import.meta.url)),
    dataDir: config.dataDir,
  });
  const platform = readPlatformConfig(standIn.env, 'demo');
  if (!platform.config) {
    await standIn.stop();
    throw new Error(`The stand-in platform's settings are wrong:\n${platform.problems.join('\n')}`);
  }
  return { config: { ...config, platform: platform.config }, standIn };
}

/** The ports this server will listen on, each with the setting that chose it. */
function plannedPorts(config: Config): PlannedPort[] {
  const { host } = config;
  const planned: PlannedPort[] = [{ setting: 'PORT', host, port: config.port }];
  const linkPort = config.appLinks.extraListenPort;
  if (linkPort !== undefined) {
    planned.push({
      setting: 'PORT + 1 (the link domain without LINK_ORIGIN)',
      host,
      port: linkPort,
    });
  }
  if (config.ops) {
    const setting = "OPS_PORT (the operators' listener; demo mode: PORT + 10 unless set)";
    planned.push({ setting, ...config.ops });
  }
  return planned;
}

async function main(): Promise<void> {
  const defaults = defaultPaths(import.meta.url);
  const loaded = loadConfig(process.env, defaults);
  // Every port first, before anything starts or says it listens (the ops listener's too).
  const taken = await portsTaken(plannedPorts(loaded));
  if (taken.length > 0) throw new ConfigError(`Invalid configuration:\n${taken.join('\n')}`);
  const { config, standIn } = await withStandIn(loaded);
  const app = await buildApp(config);
  if (standIn) app.addHook('onClose', standIn.stop);
  // Secrets rotated without a restart: read again on SIGHUP and when their files change.
  const stopReloading = reloadSecretsOnChange(app, {
    env: process.env,
    readConfig: () => loadConfig(process.env, defaults),
    onSighup: config.mode === 'production' || secretFilesOf(process.env).size > 0,
  });
  app.addHook('onClose', (_instance, done) => {
    stopReloading();
    done();
  });
  let closing = false;
  let closeLink: (() => Promise<void>) | undefined;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => {
      app.log.error('shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    Promise.all([closeLink?.(), app.close()]).then(
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
  // Demo mode without LINK_ORIGIN: the link domain on PORT + 1, served by this same app.
  const linkPort = config.appLinks.extraListenPort;
  if (linkPort !== undefined) {
    const link = await listenAlsoOn(app, { host: config.host, port: linkPort });
    closeLink = link.close;
  }
  // The operators' listener: metrics, readiness and the funnel page, never on the public port.
  const ops = operationsOf(app);
  let opsUrl: string | undefined;
  if (ops && config.ops) {
    try {
      await ops.listen({ host: config.ops.host, port: config.ops.port });
    } catch (error) {
      await Promise.all([closeLink?.(), app.close()]);
      const reason = error instanceof Error ? error.message : String(error);
      throw new ConfigError(
        `Invalid configuration:\n  OPS_PORT: the operators' listener cannot listen on ${config.ops.host}:${config.ops.port} (${reason}); set OPS_PORT to a free port, or to off`,
      );
    }
    const address = ops.server.address();
    const port = typeof address === 'object' && address ? address.port : config.ops.port;
    const host = config.ops.host.includes(':') ? `[${config.ops.host}]` : config.ops.host;
    opsUrl = `http://${host}:${port}/funnel`;
  }
  app.log.info(
    {
      mode: config.mode,
      url: `${config.publicOrigin}/anime_merch_web/website`,
      linkOrigin: config.appLinks.origin,
      operators: opsUrl,
    },
    `谷圈 web is ready at ${config.publicOrigin}/anime_merch_web/website (${[
      `link domain: ${config.appLinks.origin}`,
      ...(opsUrl ? [`operators: ${opsUrl}`] : []),
    ].join(', ')})`,
  );
}

main().catch((error: unknown) => {
  if (
    error instanceof ConfigError ||
    error instanceof WebBuildMissingError ||
    error instanceof DatabaseConnectionError ||
    error instanceof SchemaBehindError
  ) {
    console.error(error.message);
  } else if (error instanceof MigrationError) {
    console.error(error.message, error.cause);
  } else {
    console.error(error);
  }
  process.exit(1);
});
