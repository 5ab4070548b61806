/** The production-shaped cluster on one machine (cluster-lib.mjs). */
import type { ChildProcess } from 'node:child_process';
import type { PostgresServer } from './postgres-server.d.mts';
import type { RedisServer } from './redis-server.d.mts';
import type { Backoff, Restart } from './cluster-supervisor.d.mts';

export const HEALTH_PATH: string;

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

export function startCluster(options?: StartClusterOptions): Promise<Cluster>;

export function renderNginxConfig(options: {
  runDir: string;
  listen: string;
  serverPorts: number[];
  cache: boolean;
  /** The link domain's host name (its server_name). */
  linkHost: string;
}): Promise<string>;
