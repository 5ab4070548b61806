/** A throwaway Redis (redis-server.mjs). */
export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** The running redis-server's process id (undefined while stopped). */
  readonly pid: number | undefined;
  /** Stops it; its data goes with it. */
  stop: () => Promise<void>;
  /** Starts it again on the same port, empty. */
  restart: () => Promise<void>;
}

export interface StartRedisOptions {
  /** A [from, to] range to take the first free port of (default: any free port). */
  ports?: [number, number];
  /** The signal stop() sends (default SIGTERM; SIGKILL for an abrupt loss). */
  stopSignal?: NodeJS.Signals;
  /** The redis-server binary (default from PATH). */
  command?: string;
}

export function startRedis(options?: StartRedisOptions): Promise<RedisServer>;

export { freePort } from './postgres-server.d.mts';
