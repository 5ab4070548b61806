import type { FastifyInstance, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { reuseWindow } from '../http/reuse-window.ts';
import { DURATION_BUCKETS, requestDurations } from './request-durations.ts';

/**
 * The server's Prometheus metrics, one registry per app and the requests' durations beside it
 * (the operators' listener serves both at /metrics: `exposition()`). Every label has a bounded set of values: routes by their pattern (never a raw URL or
 * an id), status by class, events and reasons by name. Process memory, CPU and event-loop delay
 * are prom-client's default metrics.
 */

export interface PoolStats {
  size: number;
  total: number;
  idle: number;
  waiting: number;
}

/** Values read when Prometheus scrapes, from the parts that own them. */
export interface MetricsSources {
  /** The PostgreSQL pool's counts; undefined on SQLite (one connection, no pool). */
  pool?: () => PoolStats;
  /** Whether Redis answers; undefined without REDIS_URL. */
  redisUp?: () => boolean;
  /**
   * The outbox's rows still owed, per channel (text, platform_events), and how long the oldest
   * has waited, in seconds (0 when none).
   */
  outbox?: () => Promise<Record<string, { depth: number; oldestAgeSeconds: number }>>;
  /** Images named by the platform whose files are not here yet. */
  waitingImages?: () => Promise<number>;
}

export function createMetrics({ version }: { version: string }) {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });
  // Gauges named like counters, which `promtool check metrics` refuses; prom-client's
  // nodejs_active_handles, _requests and _resources (by type) say the same.
  for (const name of [
    'nodejs_active_handles_total',
    'nodejs_active_requests_total',
    'nodejs_active_resources_total',
  ])
    registry.removeSingleMetric(name);

  new Gauge({
    name: 'guquan_build_info',
    help: 'The running build: its version and Node.js version (always 1).',
    labelNames: ['version', 'node_version'],
    registers,
  }).set({ version, node_version: process.version }, 1);

  // Counted on every request: a plain number, read when Prometheus scrapes.
  const requests = { inFlight: 0, durations: requestDurations() };
  new Gauge({
    name: 'guquan_http_requests_in_flight',
    help: 'Requests being answered now.',
    registers,
    collect() {
      this.set(requests.inFlight);
    },
  });
  const sharePageCacheHits = new Counter({
    name: 'guquan_share_page_cache_hits_total',
    help: 'Share pages sent from the cache of rendered pages.',
    registers,
  });
  const sharePageCacheMisses = new Counter({
    name: 'guquan_share_page_cache_misses_total',
    help: 'Share pages not in the cache of rendered pages (rendered, or waiting on a render).',
    registers,
  });
  const pageCacheEvictions = new Counter({
    name: 'guquan_page_cache_evictions_total',
    help: 'Rendered pages dropped from the cache to stay within its size.',
    registers,
  });
  const sharePageRenders = new Histogram({
    name: 'guquan_share_page_render_duration_seconds',
    help: 'Time to render a share page (the count is the number of renders).',
    buckets: [...DURATION_BUCKETS],
    registers,
  });
  const prebuiltPagesServed = new Counter({
    name: 'guquan_prebuilt_pages_served_total',
    help: 'Pages sent as built ahead by `npm run build` (the website and the legal pages).',
    registers,
  });
  const queryErrors = new Counter({
    name: 'guquan_db_query_errors_total',
    help: 'Database queries that failed.',
    registers,
  });
  const rateLimitRefusals = new Counter({
    name: 'guquan_rate_limit_refusals_total',
    help: 'Requests refused by a rate limit (429), by route pattern.',
    labelNames: ['route'],
    registers,
  });
  const deletionJobLastSuccess = new Gauge({
    name: 'guquan_account_deletion_last_success_timestamp_seconds',
    help: 'When this server last ran the account deletion job to its end (Unix time; 0: not yet).',
    registers,
  });
  const accountsDeleted = new Counter({
    name: 'guquan_accounts_deleted_total',
    help: 'Accounts the deletion job deleted on this server.',
    registers,
  });
  const outboxFailedAttempts = new Counter({
    name: 'guquan_outbox_failed_attempts_total',
    help: 'Deliveries of the outbox that failed on this server (to be retried, or given up), by channel.',
    labelNames: ['channel'],
    registers,
  });
  const funnelReceived = new Counter({
    name: 'guquan_funnel_events_received_total',
    help: 'Share-funnel events received (from pages, or counted by the server itself), by event.',
    labelNames: ['event'],
    registers,
  });
  const funnelFlushed = new Counter({
    name: 'guquan_funnel_events_flushed_total',
    help: 'Share-funnel events written to the database.',
    registers,
  });
  const funnelDropped = new Counter({
    name: 'guquan_funnel_events_dropped_total',
    help: 'Share-funnel events not counted, by reason (bot, over_budget, unknown_item, overflow, write_failed).',
    labelNames: ['reason'],
    registers,
  });
  const platformImageFetches = new Counter({
    name: 'guquan_platform_image_fetches_total',
    help: "Attempts to fetch an image from the platform's media hosts, by outcome (ready, retry, failed).",
    labelNames: ['outcome'],
    registers,
  });

  const platformDeliveries = new Counter({
    name: 'guquan_platform_deliveries_total',
    help: "The platform's event deliveries answered, by result (applied, repeat, unauthorized, invalid).",
    labelNames: ['result'],
    registers,
  });
  const platformEvents = new Counter({
    name: 'guquan_platform_events_total',
    help: "The platform's events in deliveries applied, by outcome (applied, or ignored: not newer, or of an unknown type).",
    labelNames: ['outcome'],
    registers,
  });
  // Every result from the start, so a rate is 0 rather than missing before the first delivery.
  for (const result of ['applied', 'repeat', 'unauthorized', 'invalid']) {
    platformDeliveries.labels({ result }).inc(0);
  }
  for (const outcome of ['applied', 'ignored']) platformEvents.labels({ outcome }).inc(0);

  return {
    registry,
    /** Everything, in Prometheus' text format: the registry's metrics, then the durations. */
    async exposition(): Promise<string> {
      return `${await registry.metrics()}\n${requests.durations.exposition()}`;
    },
    http: { requests, rateLimitRefusals },
    /** What the page routes report (pages/page-routes.ts: PageObserver). */
    pages: {
      cacheHit: () => {
        sharePageCacheHits.inc();
      },
      cacheMiss: () => {
        sharePageCacheMisses.inc();
      },
      rendered: (seconds: number) => {
        sharePageRenders.observe(seconds);
      },
      evicted: () => {
        pageCacheEvictions.inc();
      },
      prebuiltServed: () => {
        prebuiltPagesServed.inc();
      },
    },
    database: {
      queryFailed: () => {
        queryErrors.inc();
      },
    },
    deletionJob: {
      succeeded: (at: Date, deleted: number) => {
        deletionJobLastSuccess.set(at.getTime() / 1000);
        accountsDeleted.inc(deleted);
      },
    },
    /** What the funnel counter reports (funnel/funnel-counter.ts: FunnelObserver). */
    funnel: {
      received: (event: string) => {
        funnelReceived.inc({ event });
      },
      flushed: (count: number) => {
        funnelFlushed.inc(count);
      },
      dropped: (reason: string, count = 1) => {
        funnelDropped.inc({ reason }, count);
      },
    },
    /** What the platform's events endpoint reports (platform/platform-routes.ts: PlatformObserver). */
    platform: {
      delivery: (result: string, events: { applied: number; ignored: number }) => {
        platformDeliveries.inc({ result });
        platformEvents.inc({ outcome: 'applied' }, events.applied);
        platformEvents.inc({ outcome: 'ignored' }, events.ignored);
      },
    },
    /** What the platform's image fetcher reports (media/platform-image-fetcher.ts). */
    /** What the outbox reports (outbox/outbox-plugin.ts: OutboxObserver). */
    outbox: {
      failedAttempt: (channel: string) => {
        outboxFailedAttempts.inc({ channel });
      },
    },
    platformImages: {
      fetched: (outcome: string) => {
        platformImageFetches.inc({ outcome });
      },
    },
    /** Registers the gauges read at scrape time from the parts that own them. */
    watch(sources: MetricsSources): void {
      const { pool, redisUp, outbox, waitingImages } = sources;
      if (waitingImages) {
        const readWaiting = sharedFor(1_000, async () => ({ count: await waitingImages() }));
        new Gauge({
          name: 'guquan_platform_images_waiting',
          help: "Images named by the platform's events whose files are not fetched yet.",
          registers,
          async collect() {
            try {
              this.set((await readWaiting()).count);
            } catch {
              // The database is away: the gauge goes missing from this scrape rather than lie.
              this.reset();
            }
          },
        });
      }
      if (pool) {
        const poolGauge = (name: string, help: string, read: (stats: PoolStats) => number) =>
          new Gauge({
            name,
            help,
            registers,
            collect() {
              this.set(read(pool()));
            },
          });
        poolGauge('guquan_db_pool_size', 'Connections the pool may open at most.', (s) => s.size);
        poolGauge(
          'guquan_db_pool_connections_in_use',
          'Connections checked out of the pool now.',
          (s) => s.total - s.idle,
        );
        poolGauge(
          'guquan_db_pool_waiting',
          'Queries waiting for a free connection.',
          (s) => s.waiting,
        );
      }
      if (redisUp) {
        new Gauge({
          name: 'guquan_redis_up',
          help: 'Whether Redis (the shared rate-limit counters) answers: 1 or 0.',
          registers,
          collect() {
            this.set(redisUp() ? 1 : 0);
          },
        });
      }
      if (outbox) {
        // Both gauges come from one query per scrape (prom-client collects metrics in parallel).
        const readOutbox = sharedFor(1_000, outbox);
        const outboxGauge = (
          name: string,
          help: string,
          read: (state: { depth: number; oldestAgeSeconds: number }) => number,
        ) =>
          new Gauge({
            name,
            help,
            labelNames: ['channel'],
            registers,
            async collect() {
              try {
                const channels = await readOutbox();
                this.reset();
                for (const [channel, state] of Object.entries(channels)) {
                  this.set({ channel }, read(state));
                }
              } catch {
                // The database is away: the gauge goes missing from this scrape rather than lie.
                this.reset();
              }
            },
          });
        outboxGauge(
          'guquan_outbox_depth',
          'What the site owes to others and has not delivered yet, by channel (text, platform_events).',
          (s) => s.depth,
        );
        outboxGauge(
          'guquan_outbox_oldest_age_seconds',
          'How long the oldest undelivered row of a channel has waited (0 when none waits).',
          (s) => s.oldestAgeSeconds,
        );
      }
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * One call of `read` answers every caller for `ms`: its promise, kept in an lru-cache of one entry
 * (settled or not, failed or not, as `read` gave it).
 */
function sharedFor<T extends object>(ms: number, read: () => Promise<T>): () => Promise<T> {
  const last = new LRUCache<'last', Promise<T>>({ max: 1, memoMethod: read, ...reuseWindow(ms) });
  return () => last.memo('last');
}

/**
 * Times every request of `app` (and counts those in flight), labelled with `routeOf(request)`: a
 * route pattern, never the URL. The in-flight count goes down when the response's connection is
 * done with it, answered or aborted ('close' comes once per response).
 */
export function instrumentRequests(
  app: FastifyInstance,
  metrics: Metrics,
  routeOf: (request: FastifyRequest) => string,
): void {
  const { requests } = metrics.http;
  const leave = () => {
    requests.inFlight -= 1;
  };
  app.addHook('onRequest', (_request, reply, done) => {
    requests.inFlight += 1;
    reply.raw.on('close', leave);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    requests.durations.observe(
      request.method,
      routeOf(request),
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
