// The production-shaped cluster on one machine: PostgreSQL, Redis, INSTANCES app servers, nginx
// in front (deploy/nginx.conf.template) and Prometheus scraping the servers (deploy/prometheus.yml). `npm run cluster` (scripts/cluster.mjs), the cluster tests and
// `npm run bench:cluster` start it with startCluster().
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startStandInProcess,
  type StandInProcess,
} from '../../apps/server/src/stand-in/stand-in-process.ts';
import { migrateBeforeServers } from './built-migrate.ts';
import { supervise, type Backoff, type Restart, type Supervised } from './cluster-supervisor.ts';
import { pickPort, startPostgres, type PostgresServer } from './postgres-server.ts';
import { startRedis, type RedisServer } from './redis-server.ts';
import { sleep } from '../../apps/server/src/timing/sleep.ts';

export interface ClusterServer {
  index: number;
  port: number;
  /** The running process (a new one after each restart). */
  readonly pid: number | undefined;
  readonly child: ChildProcess;
  /** Each time it exited after it was ready, and was started again. */
  restarts: Restart[];
  /** Its operators' listener (metrics, readiness), on the same host. */
  opsPort: number;
  /** Its own media folders (MEDIA_DIR, MEDIA_CACHE_DIR), as a pod's own disk. */
  mediaDirs: string[];
}

export interface Cluster {
  /** http://127.0.0.1:<nginx port> */
  origin: string;
  /** The app's link domain through the same nginx: http://localhost:<nginx port> unless set. */
  linkOrigin: string;
  /** The temp dir holding everything (removed by stop()). */
  dir: string;
  servers: ClusterServer[];
  postgres: PostgresServer;
  redis: RedisServer;
  nginx: { pid: number | undefined; port: number; runDir: string };
  /** The one stand-in platform of every server, unless the env named a platform (PLATFORM_*). */
  platform: { origin: string; env: Record<string, string> } | undefined;
  /** Prometheus scraping every server's operators' listener (deploy/prometheus.yml). */
  prometheus: { url: string; pid: number | undefined };
  /** Kills one app server at once (SIGKILL), as a crash would; its supervisor restarts it. */
  killServer: (index: number) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Stops nginx, the servers, Redis and PostgreSQL, and removes the temp dir. */
  stop: () => Promise<void>;
}

export interface StartClusterOptions {
  /** App servers (default 2). */
  instances?: number;
  /** nginx's port (default: the first free one of `ports`, or any free one). */
  port?: number;
  /** A [from, to] range every other port is taken from (default: any free port). */
  ports?: [number, number];
  /** nginx's shared cache on (default) or off. */
  cache?: boolean;
  /** The servers' environment, before the cluster's own settings (default process.env). */
  env?: Record<string, string | undefined>;
  /** Where the servers' output goes (default: inherited). */
  serverOutput?: 'inherit' | 'ignore';
  /** Progress lines. */
  log?: (line: string) => void;
  /** Where the temp dir is made (default the system's temp dir). */
  parentDir?: string;
  /** The nginx binary (default from PATH). */
  nginx?: string;
  /** How restarts of a server that exited are spaced (default RESTART_BACKOFF). */
  restartBackoff?: Backoff;
  /** The prometheus binary (default from PATH). */
  prometheus?: string;
}

const HOST = '127.0.0.1';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER_ENTRY = join(ROOT, 'apps/server/dist/server.js');
const STAND_IN_ENTRY = join(ROOT, 'apps/server/dist/stand-in.js');
const ASSETS_DIR = join(ROOT, 'apps/web/dist/client/assets');
const NGINX_TEMPLATE = join(ROOT, 'deploy/nginx.conf.template');
// The servers' own 503 page and body, written by the build (apps/server/src/http/unavailable-page.ts).
const ERRORS_DIR = join(ROOT, 'apps/web/dist/errors');
const PROMETHEUS_CONFIG = join(ROOT, 'deploy/prometheus.yml');
const PROMETHEUS_ALERTS = join(ROOT, 'deploy/alerts.yml');
/** Scrapes this often here (15 s in deploy/), so a killed server shows as down within seconds. */
const CLUSTER_SCRAPE_INTERVAL = '2s';
export const HEALTH_PATH = '/anime_merch_web/api/v1/health';
/** A limit for a start that hangs, not a speed promise: a slow machine starts within it. */
const READY_TIMEOUT_MS = 180_000;

/** Polls `url` until it answers 200, the process exits, or the time is up. */
async function waitForHealth(url: string, child: ChildProcess, what: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.signalCode ?? child.exitCode}) before it was ready`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`${what} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/**
 * Holds a loopback port until nginx takes it over, or fails when it is taken. A listening socket
 * accepts connections in the kernel whether or not anyone answers them, so whatever connects
 * meanwhile (a load balancer's health check, a visitor, a script polling for readiness) is
 * answered 503 in the site's error shape at once and let go; close() drops any still open, so
 * nothing that connects can hold up the start. Returns { close }.
 */
async function reservePort(port: number): Promise<{ close: () => Promise<void> | undefined }> {
  const body = await readFile(join(ERRORS_DIR, '503.json'));
  const answer = Buffer.concat([
    Buffer.from(
      [
        'HTTP/1.1 503 Service Unavailable',
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${body.length}`,
        'Cache-Control: no-store',
        'Retry-After: 5',
        'Connection: close',
        '',
        '',
      ].join('\r\n'),
    ),
    body,
  ]);
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    // Read (and drop) what the client sends, so closing never resets an unread request and
    // loses the answer; the client closes after it, or we do a second later.
    socket.resume();
    socket.setTimeout(1_000, () => socket.destroy());
    socket.end(answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: HOST, port, exclusive: true }, resolve);
  });
  return {
    close() {
      for (const socket of sockets) socket.destroy();
      return server.listening
        ? new Promise<void>((resolve) => {
            server.close(() => {
              resolve();
            });
          })
        : undefined;
    },
  };
}

/** Sends `signal` unless the child is gone already, and waits for it to go. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill(signal);
  await exited;
}

/** The app server's environment: production-shaped, on the shared PostgreSQL and Redis. */
function serverEnv(
  base: Record<string, string | undefined>,
  settings: {
    port: number;
    opsPort: number;
    origin: string;
    linkOrigin: string;
    databaseUrl: string;
    redisUrl: string;
    dataDir: string;
    phoneKey: string;
  },
): Record<string, string | undefined> {
  return {
    ...base,
    // Demo mode unless the caller says otherwise: production needs the real App Store and SMS
    // settings, and demo mode's loopback-only rule fits servers that only nginx reaches.
    APP_MODE: base.APP_MODE ?? 'demo',
    HOST,
    PORT: String(settings.port),
    // The operators' listener (metrics, readiness), scraped by the cluster's Prometheus.
    OPS_HOST: HOST,
    OPS_PORT: String(settings.opsPort),
    PUBLIC_ORIGIN: base.PUBLIC_ORIGIN ?? settings.origin,
    // The app's link domain, through nginx under its own server_name (LINK_HOST in the template).
    LINK_ORIGIN: base.LINK_ORIGIN ?? settings.linkOrigin,
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    DATA_DIR: settings.dataDir,
    // Each server's media folders are its own, as a pod's disk is
    // (docs/decisions/0029-servers-keep-nothing-of-their-own.md): an image one
    // server fetched, another fetches again from the platform's media host when asked for it.
    MEDIA_DIR: join(settings.dataDir, 'servers', String(settings.port), 'media'),
    MEDIA_CACHE_DIR: join(settings.dataDir, 'servers', String(settings.port), 'media-cache'),
    // One key for every server, given as a real deployment gives it (not the demo's key file).
    PHONE_ENCRYPTION_KEY: base.PHONE_ENCRYPTION_KEY ?? settings.phoneKey,
    // Only nginx (on this machine) may say who the client is.
    TRUST_PROXY: HOST,
    LOG_LEVEL: base.LOG_LEVEL ?? 'warn',
  };
}

/** nginx.conf from the template in deploy/, for these servers. */
export async function renderNginxConfig({
  runDir,
  listen,
  serverPorts,
  cache,
  linkHost,
}: {
  runDir: string;
  listen: string;
  serverPorts: number[];
  cache: boolean;
  /** The link domain's host name (its server_name). */
  linkHost: string;
}): Promise<string> {
  const template = await readFile(NGINX_TEMPLATE, 'utf8');
  const values: Record<string, string> = {
    RUN_DIR: runDir,
    LISTEN: listen,
    UPSTREAM_SERVERS: serverPorts
      .map((port) => `        server ${HOST}:${port} max_fails=1 fail_timeout=5s;`)
      .join('\n'),
    ASSETS_DIR,
    CACHE_DIR: join(runDir, 'cache'),
    PROXY_CACHE: cache ? 'guquan' : 'off',
    ERRORS_DIR,
    LINK_HOST: linkHost,
    // nginx is the edge here: nothing in front of it, no DNS to ask.
    HTTP_EXTRA: '',
  };
  return template.replace(/@([A-Z_]+)@/g, (match, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`nginx.conf.template: unknown placeholder ${match}`);
    return value;
  });
}

/**
 * Prometheus as a child, on deploy/prometheus.yml and alerts.yml as they are (the scrape interval
 * shortened), scraping `targets` (host:port of each server's operators' listener).
 */
async function startPrometheus({
  dir,
  port,
  targets,
  command = 'prometheus',
}: {
  dir: string;
  port: number;
  targets: string[];
  command?: string;
}): Promise<{ url: string; port: number; child: ChildProcess; pid: number | undefined }> {
  const configDir = join(dir, 'prometheus');
  await mkdir(join(configDir, 'targets'), { recursive: true });
  const config = (await readFile(PROMETHEUS_CONFIG, 'utf8'))
    .replace(/^(\s*(?:scrape|evaluation)_interval:) 15s$/gm, `$1 ${CLUSTER_SCRAPE_INTERVAL}`)
    .replace(/^(\s*scrape_timeout:) 10s$/m, `$1 ${CLUSTER_SCRAPE_INTERVAL}`);
  await writeFile(join(configDir, 'prometheus.yml'), config);
  await writeFile(join(configDir, 'alerts.yml'), await readFile(PROMETHEUS_ALERTS, 'utf8'));
  await writeFile(
    join(configDir, 'targets', 'guquan-web.json'),
    `${JSON.stringify([{ targets, labels: { cluster: 'npm run cluster' } }], null, 2)}\n`,
  );
  const child = spawn(
    command,
    [
      `--config.file=${join(configDir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(configDir, 'data')}`,
      `--web.listen-address=${HOST}:${port}`,
      '--log.level=error',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const url = `http://${HOST}:${port}`;
  await waitForHealth(`${url}/-/ready`, child, 'Prometheus');
  return { url, port, child, pid: child.pid };
}

/**
 * Starts the whole cluster under a temp dir and returns once nginx answers. As a deployment does,
 * the built migrate command runs once before any server (a production server never migrates on
 * start; a failed migrate stops the start with its message). Servers then start one after the
 * other: in demo mode the first one seeds the empty database, the others find it done.
 */
export async function startCluster(options: StartClusterOptions = {}): Promise<Cluster> {
  const instances = options.instances ?? 2;
  const ports = options.ports;
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(join(options.parentDir ?? tmpdir(), 'guquan-cluster-'));
  const dataDir = join(dir, 'data');
  const runDir = join(dir, 'nginx');
  // nginx's workers run as an unprivileged user when we are root: they must reach the run dir;
  // nginx itself makes the cache and temp dirs inside, owned by that user.
  await mkdir(runDir);
  await chmod(dir, 0o755);
  await chmod(runDir, 0o755);
  const stack: (() => Promise<void>)[] = [];
  const cleanUp = async () => {
    for (const stop of stack.reverse()) await stop().catch(() => undefined);
    stack.length = 0;
    await rm(dir, { recursive: true, force: true });
  };

  try {
    const nginxPort = options.port ?? (await pickPort(ports ?? 0));
    // Held until nginx starts, so that nothing started before takes it; a port in use stops the
    // start here, before anything else starts.
    const reservation = await reservePort(nginxPort).catch(() => {
      throw new Error(`port ${nginxPort} is in use (set PORT to another one)`);
    });
    stack.push(() => reservation.close() ?? Promise.resolve());
    const origin = `http://${HOST}:${nginxPort}`;
    // The link domain is another host name of the same nginx: `localhost` reaches this machine in
    // every browser, and is not the site's 127.0.0.1 (a link to the site's own host never opens
    // the app).
    const serversEnv = options.env ?? process.env;
    const linkOrigin = serversEnv.LINK_ORIGIN ?? `http://localhost:${nginxPort}`;
    const postgres = await startPostgres({ ports, parentDir: dir });
    stack.push(() => postgres.stop());
    log(`PostgreSQL on ${postgres.host}:${postgres.port} (pid ${postgres.pid})`);
    const redis = await startRedis(ports ? { ports } : {});
    stack.push(() => redis.stop());
    log(`Redis on ${HOST}:${redis.port}`);
    // One stand-in platform for every server, as `npm start` runs one for its server, unless the
    // caller names a platform: each server gets its PLATFORM_* settings.
    const namesPlatform = Object.keys(serversEnv).some(
      (name) => name.startsWith('PLATFORM_') && serversEnv[name],
    );
    let standIn: StandInProcess | undefined;
    if (!namesPlatform) {
      standIn = await startStandInProcess({ script: STAND_IN_ENTRY, dataDir });
      const started = standIn;
      stack.push(() => started.stop());
      log(`the stand-in platform on ${standIn.origin}`);
    }

    const phoneKey = `cluster:${randomBytes(32).toString('base64')}`;
    const servers: ClusterServer[] = [];
    const supervisors: Supervised[] = [];
    for (let index = 0; index < instances; index += 1) {
      const port = await pickPort(ports ?? 0);
      // Not the app port just picked: nothing listens on it until the server starts.
      const opsPort = await pickPort(ports ? [port + 1, ports[1]] : 0);
      const env = serverEnv(
        { ...serversEnv, ...standIn?.env },
        {
          port,
          opsPort,
          origin,
          linkOrigin,
          databaseUrl: postgres.url(),
          redisUrl: redis.url,
          dataDir,
          phoneKey,
        },
      );
      if (index === 0) {
        // The migration Job of a rollout: once, with the servers' environment, before any server.
        const said = await migrateBeforeServers({ root: ROOT, env });
        log(`migrate: ${said.trim()}`);
      }
      // As systemd's Restart=always would (docs/operations.md, "Hosts of your own"): a server that exits
      // after it was ready is started again on its port, with a growing delay.
      const supervisor = supervise({
        name: `app server ${index + 1} (port ${port})`,
        start: () =>
          spawn(process.execPath, [SERVER_ENTRY], {
            env,
            stdio: ['ignore', options.serverOutput ?? 'inherit', options.serverOutput ?? 'inherit'],
          }),
        log,
        backoff: options.restartBackoff,
      });
      const server: ClusterServer = {
        index,
        port,
        opsPort,
        get child() {
          return supervisor.child;
        },
        get pid() {
          return supervisor.child.pid;
        },
        restarts: supervisor.restarts,
        mediaDirs: [env.MEDIA_DIR ?? '', env.MEDIA_CACHE_DIR ?? ''],
      };
      servers.push(server);
      supervisors.push(supervisor);
      stack.push(() => supervisor.stop());
      await waitForHealth(
        `http://${HOST}:${port}${HEALTH_PATH}`,
        supervisor.child,
        `app server ${index + 1}`,
      );
      supervisor.watch();
      log(
        `app server ${index + 1} on ${HOST}:${port}, operators on ${HOST}:${opsPort} (pid ${supervisor.child.pid})`,
      );
    }

    const config = await renderNginxConfig({
      runDir,
      listen: `${HOST}:${nginxPort}`,
      serverPorts: servers.map((server) => server.port),
      cache: options.cache ?? true,
      linkHost: new URL(linkOrigin).hostname,
    });
    await writeFile(join(runDir, 'nginx.conf'), config);
    await reservation.close();
    const nginx = spawn(
      options.nginx ?? 'nginx',
      ['-p', runDir, '-c', join(runDir, 'nginx.conf'), '-g', 'daemon off;'],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    // nginx ends its workers and exits on SIGQUIT after the requests in flight (graceful).
    stack.push(() => stopChild(nginx, 'SIGQUIT'));
    await waitForHealth(`${origin}${HEALTH_PATH}`, nginx, 'nginx');
    log(`nginx on ${origin} (pid ${nginx.pid})`);

    const prometheus = await startPrometheus({
      dir,
      port: await pickPort(ports ?? 0),
      targets: servers.map((server) => `${HOST}:${server.opsPort}`),
      command: options.prometheus,
    });
    stack.push(() => stopChild(prometheus.child));
    log(`Prometheus on ${prometheus.url} (pid ${prometheus.pid})`);

    let stopping: Promise<void> | undefined;
    return {
      origin,
      linkOrigin,
      dir,
      servers,
      postgres,
      redis,
      nginx: { pid: nginx.pid, port: nginxPort, runDir },
      platform: standIn && { origin: standIn.origin, env: standIn.env },
      prometheus: { url: prometheus.url, pid: prometheus.pid },
      /**
       * Kills one app server at once (SIGKILL), as a crash would, and gives how it ended; its
       * supervisor starts it again.
       */
      async killServer(index) {
        const server = servers[index];
        if (!server) throw new Error(`no app server ${index}`);
        const { child } = server;
        await stopChild(child, 'SIGKILL');
        return { code: child.exitCode, signal: child.signalCode };
      },
      stop() {
        // A SIGTERM to the whole process group reaches the app servers too: once the cluster is
        // stopping, one that exits of itself is not started again.
        for (const supervisor of supervisors) supervisor.hold();
        stopping ??= cleanUp();
        return stopping;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
