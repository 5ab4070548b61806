/**
 * Readiness, as Kubernetes and load balancers read it: ready (200) while this server can serve,
 * 503 while its database (or Redis, when configured) cannot be reached and from the moment it
 * starts shutting down, so traffic goes elsewhere first. Liveness is apart and checks nothing:
 * a database outage must not get every server restarted.
 */
export interface ReadinessReport {
  ready: boolean;
  database: 'up' | 'down';
  redis: 'up' | 'down' | 'not_configured';
  shuttingDown: boolean;
}

export interface ReadinessChecks {
  /** Resolves when the database answers a trivial query. */
  database: () => Promise<unknown>;
  /** Whether Redis answers; absent without REDIS_URL. */
  redisUp?: () => boolean;
  /** How long the database may take to answer (default 2 s). */
  timeoutMs?: number;
}

export interface Readiness {
  check(): Promise<ReadinessReport>;
  /** From now on, not ready: the server is closing. */
  markShuttingDown(): void;
}

async function answersWithin(check: () => Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => {
      resolve(false);
    }, ms);
  });
  try {
    return await Promise.race([check().then(() => true), timeout]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

export function createReadiness({
  database,
  redisUp,
  timeoutMs = 2_000,
}: ReadinessChecks): Readiness {
  let shuttingDown = false;
  return {
    async check() {
      const databaseUp = await answersWithin(database, timeoutMs);
      const redis = redisUp ? (redisUp() ? 'up' : 'down') : 'not_configured';
      return {
        ready: !shuttingDown && databaseUp && redis !== 'down',
        database: databaseUp ? 'up' : 'down',
        redis,
        shuttingDown,
      };
    },
    markShuttingDown() {
      shuttingDown = true;
    },
  };
}
