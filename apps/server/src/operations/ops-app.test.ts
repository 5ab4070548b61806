import { spawn } from 'node:child_process';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_LINK_HANDOFFS_PATH } from '@guquan/contract/app-link-paths';
import { FUNNEL_EVENTS } from '@guquan/contract/funnel-events';
import { funnelResponseSchema } from '@guquan/contract/funnel';
import { DEMO_IDS } from '../demo/seed/demo-ids.ts';
import { funnelDayOf } from '../funnel/funnel-days.ts';
import { buildTestApp } from '../test-support/test-app.ts';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { openTestDatabase } from '../test-support/test-database.ts';
import { createMetrics } from './metrics.ts';
import { attachOperations, operationsOf } from './operations.ts';
import { createReadiness } from './readiness.ts';

/**
 * The operators' listener: metrics Prometheus accepts, liveness and readiness, the funnel's JSON
 * and page; none of it on the public port.
 */
let app: FastifyInstance;
let ops: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
  const found = operationsOf(app);
  if (!found) throw new Error('no operators’ listener');
  ops = found;
});
afterAll(() => app.close());

/** Runs `promtool check metrics` on the text; resolves to its exit code and output. */
function promtoolCheckMetrics(text: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('promtool', ['check', 'metrics'], { stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, output });
    });
    child.stdin.end(text);
  });
}

describe('GET /metrics', () => {
  it('is accepted by promtool and holds the metrics the alerts and dashboards need', async () => {
    // Something to measure: a share page (rendered, then from the cache), a page built ahead, a 404.
    const share = `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=zh-CN`;
    await app.inject(share);
    await app.inject(share);
    await app.inject('/anime_merch_web/website');
    await app.inject('/anime_merch_web/api/v1/no-such-thing');
    await app.inject(`/anime_merch_web/api/v1/goods/${DEMO_IDS.goods.gallery}`);
    const answer = await ops.inject('/metrics');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = answer.body;
    const check = await promtoolCheckMetrics(text);
    expect(check.output).toBe('');
    expect(check.code).toBe(0);
    for (const name of [
      'guquan_build_info',
      'process_start_time_seconds',
      'process_cpu_seconds_total',
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_p99_seconds',
      'guquan_http_requests_in_flight',
      'guquan_share_page_cache_hits_total',
      'guquan_share_page_cache_misses_total',
      'guquan_page_cache_evictions_total',
      'guquan_share_page_render_duration_seconds_count',
      'guquan_prebuilt_pages_served_total',
      'guquan_db_query_errors_total',
      'guquan_outbox_depth',
      'guquan_outbox_oldest_age_seconds',
      'guquan_platform_images_waiting',
      'guquan_account_deletion_last_success_timestamp_seconds',
      'guquan_accounts_deleted_total',
      'guquan_funnel_events_flushed_total',
      'guquan_platform_deliveries_total',
      'guquan_platform_events_total',
    ]) {
      expect(text, name).toMatch(new RegExp(`^${name}(\\{[^}]*\\})? `, 'm'));
    }
    // Routes by pattern and status by class: never a raw URL or an id.
    expect(text).toMatch(
      /guquan_http_request_duration_seconds_count\{method="GET",route="\/anime_merch_web\/AppShare\/goodsShare",status_class="2xx"\} 2/,
    );
    expect(text).toMatch(/route="\/anime_merch_web\/api\/v1\/goods\/:id",status_class="2xx"/);
    expect(text).toMatch(/route="\/anime_merch_web\/website"/);
    expect(text).toMatch(/route="\/anime_merch_web\/api\/v1\/\*",status_class="4xx"/);
    expect(text).not.toContain(DEMO_IDS.goods.gallery);
    expect(text).not.toContain('no-such-thing');
    expect(text).toMatch(/^guquan_share_page_cache_hits_total 1$/m);
    expect(text).toMatch(/^guquan_share_page_render_duration_seconds_count 1$/m);
    expect(text).toMatch(/^guquan_prebuilt_pages_served_total 1$/m);
    // Every request above was answered: none is left counted as in flight.
    expect(text).toMatch(/^guquan_http_requests_in_flight 0$/m);
    expect(text).toMatch(/guquan_build_info\{version="[^"]+",node_version="v\d+/);
  });

  it('counts refusals by rate limits per route', async () => {
    // A share page's handoff codes: 20 a minute per address; the 21st is refused.
    for (let index = 0; index < 21; index += 1) {
      await app.inject({
        method: 'POST',
        url: APP_LINK_HANDOFFS_PATH,
        payload: { target: { kind: 'goods', id: DEMO_IDS.goods.gallery } },
        remoteAddress: '192.0.2.9',
      });
    }
    const text = (await ops.inject('/metrics')).body;
    expect(text).toMatch(
      /guquan_rate_limit_refusals_total\{route="\/anime_merch_web\/api\/v1\/app-links\/handoffs"\} 1/,
    );
  });
});

describe('the public port', () => {
  it('serves none of the operators’ paths', async () => {
    for (const path of ['/metrics', '/health/ready', '/health/live', '/funnel', '/api/funnel']) {
      const answer = await app.inject(path);
      expect(answer.statusCode, path).not.toBe(200);
      expect(answer.body).not.toContain('guquan_');
    }
  });
});

describe('health', () => {
  it('is live and ready while the database answers', async () => {
    expect((await ops.inject('/health/live')).json()).toEqual({ status: 'live' });
    const ready = await ops.inject('/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({
      status: 'ready',
      database: 'up',
      redis: 'not_configured',
      shuttingDown: false,
    });
  });

  it('says not ready (503) from the moment the server starts closing', async () => {
    const data = await openTestDatabase({ seed: false });
    const site = Fastify();
    const closingOps = await attachOperations(site, {
      metrics: createMetrics({ version: 'test' }),
      readiness: createReadiness({ database: () => sql`select 1`.execute(data.db) }),
      db: data.db,
      publicOrigin: 'http://127.0.0.1',
      logger: site.log,
    });
    let during: { statusCode: number; body: string } | undefined;
    site.addHook('onClose', async () => {
      // The public server is closed by now; the operators' listener answers until the end.
      during = await closingOps.inject('/health/ready');
    });
    await site.ready();
    expect((await closingOps.inject('/health/ready')).statusCode).toBe(200);
    await site.close();
    await data.close();
    expect(during?.statusCode).toBe(503);
    expect(JSON.parse(during?.body ?? '{}')).toMatchObject({
      status: 'unavailable',
      shuttingDown: true,
      database: 'up',
    });
  });
});

describe('the funnel', () => {
  it('GET /api/funnel: totals of every event and each day, zeros included', async () => {
    const today = funnelDayOf(new Date());
    const answer = await ops.inject(`/api/funnel?from=2020-01-01&to=2020-01-03`);
    expect(answer.statusCode).toBe(200);
    const body = funnelResponseSchema.parse(answer.json());
    expect(Object.keys(body.totals).sort()).toEqual([...FUNNEL_EVENTS].sort());
    expect(body.days.map((day) => day.day)).toEqual(['2020-01-01', '2020-01-02', '2020-01-03']);
    expect(body.totals.viewed).toBe(0);
    // The demo seed filled the last 30 days.
    const seeded = funnelResponseSchema.parse(
      (await ops.inject(`/api/funnel?from=${today}&to=${today}`)).json(),
    );
    expect(seeded.totals.viewed).toBeGreaterThan(0);
    const item = funnelResponseSchema.parse(
      (
        await ops.inject(
          `/api/funnel?from=${today}&to=${today}&kind=goods&id=${DEMO_IDS.goods.gallery}`,
        )
      ).json(),
    );
    expect(item.totals.viewed).toBeGreaterThan(0);
    expect(item.totals.viewed).toBeLessThan(seeded.totals.viewed);
  });

  it('GET /api/funnel refuses what it cannot answer', async () => {
    for (const query of [
      '',
      'from=2026-01-02&to=2026-01-01',
      'from=2026-02-30&to=2026-03-01',
      'from=2026-1-1&to=2026-01-02',
      'from=2024-01-01&to=2026-01-01',
      `from=2026-01-01&to=2026-01-02&kind=goods`,
      `from=2026-01-01&to=2026-01-02&kind=user&id=${DEMO_IDS.goods.gallery}`,
      `from=2026-01-01&to=2026-01-02&visitor=1`,
    ]) {
      const answer = await ops.inject(`/api/funnel?${query}`);
      expect(answer.statusCode, query).toBe(400);
      expect(answer.json()).toMatchObject({ error: { code: 'bad_request' } });
    }
  });

  it('the operators’ page: the funnel, per day, by channel and kind, the top items, in both languages', async () => {
    const zh = await ops.inject({ url: '/funnel', headers: { 'accept-language': 'zh-CN' } });
    expect(zh.statusCode).toBe(200);
    expect(zh.headers['content-type']).toMatch(/^text\/html/);
    expect(zh.headers['content-security-policy']).toContain("default-src 'none'");
    expect(zh.body).toContain('<html lang="zh-CN">');
    for (const text of ['漏斗', '每日', '按渠道', '按分享类型', '浏览最多的 20 个内容', '微信']) {
      expect(zh.body).toContain(text);
    }
    const en = await ops.inject('/funnel?lang=en');
    expect(en.body).toContain('<html lang="en">');
    for (const text of ['Funnel', 'Per day', 'By channel', 'By kind of share', 'WeChat']) {
      expect(en.body).toContain(text);
    }
    // Each chart has its numbers in a table; the page runs no script.
    expect(en.body.match(/<svg /g)?.length).toBeGreaterThanOrEqual(5);
    expect(en.body.match(/<table/g)?.length).toBeGreaterThanOrEqual(5);
    expect(en.body).not.toContain('<script');
    // The top items link to their share pages and name them as their owners did, escaped.
    expect(en.body).toContain(`goodsShare?id=${DEMO_IDS.goods.gallery}`);
    expect((await ops.inject('/operators.css')).statusCode).toBe(200);
    expect((await ops.inject('/')).headers.location).toBe('/funnel');
  });
});

describe('request ids', () => {
  it('every answer carries one, and an error answer says it', async () => {
    const answer = await app.inject('/anime_merch_web/api/v1/no-such-thing');
    const id = answer.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.json()).toEqual({
      error: { code: 'not_found', message: expect.any(String) as string, requestId: id },
    });
    // A client's own X-Request-Id is not believed without TRUST_PROXY.
    const forged = await app.inject({
      url: '/anime_merch_web/api/v1/health',
      headers: { 'x-request-id': 'forged-by-the-client-0001' },
    });
    expect(forged.headers['x-request-id']).not.toBe('forged-by-the-client-0001');
  });
});
