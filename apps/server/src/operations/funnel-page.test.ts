import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunnelEvent, ShareChannel } from '@guquan/contract/funnel-events';
import { addFunnelCounts, funnelCountRows } from '../funnel/funnel-repository.ts';
import { openTestDatabase, type TestDatabase } from '../test-support/test-database.ts';
import { createMetrics } from './metrics.ts';
import { buildOperationsApp } from './ops-app.ts';
import { createReadiness } from './readiness.ts';

/**
 * The operators' funnel page read as an operator reads it: funnel rows seeded over a period and
 * the period before it (and days outside both), then the numbers taken off the rendered HTML —
 * counts, conversions from the step before, the previous period and its change, one channel
 * alone, one scale for every bar — and a refused period answered with a 400 that says why.
 */
const NOW = new Date('2026-06-30T04:00:00Z'); // 2026-06-30 in China
const RANGE = 'from=2026-06-21&to=2026-06-30';
const ITEM = 'g_funnelpage01';

let data: TestDatabase;
let ops: FastifyInstance;

/** What is seeded: one item's counts, a day and a channel a line. */
const SEEDED: readonly [day: string, ShareChannel, Partial<Record<FunnelEvent, number>>][] = [
  // The period shown (2026-06-21 to 2026-06-30), its first and last day included.
  ['2026-06-21', 'wechat', { viewed: 600, open_tapped: 150, guide_shown: 120, link_copied: 30 }],
  [
    '2026-06-25',
    'safari',
    { viewed: 400, open_tapped: 100, store_fallback: 40, handoff_minted: 30, handoff_claimed: 12 },
  ],
  ['2026-06-30', 'chrome', { viewed: 100 }],
  // The ten days before (2026-06-11 to 2026-06-20).
  ['2026-06-11', 'wechat', { viewed: 500, open_tapped: 140, link_copied: 40 }],
  [
    '2026-06-20',
    'safari',
    { viewed: 300, open_tapped: 60, store_fallback: 30, handoff_minted: 20, handoff_claimed: 8 },
  ],
  // Outside both: never counted.
  ['2026-06-10', 'wechat', { viewed: 9999 }],
  ['2026-07-01', 'safari', { viewed: 8888 }],
];

beforeAll(async () => {
  data = await openTestDatabase({ seed: false });
  await addFunnelCounts(
    data.db,
    SEEDED.flatMap(([day, channel, counts]) =>
      funnelCountRows({ day, kind: 'goods', itemId: ITEM, channel }, counts),
    ),
  );
  ops = await buildOperationsApp({
    metrics: createMetrics({ version: 'test' }),
    readiness: createReadiness({ database: () => sql`select 1`.execute(data.db) }),
    db: data.db,
    publicOrigin: 'http://127.0.0.1',
    logger: Fastify({ logger: false }).log,
    now: () => NOW,
  });
});

afterAll(async () => {
  await ops.close();
  await data.close();
});

async function page(query: string): Promise<{ status: number; html: string; csp: string }> {
  const answer = await ops.inject(`/funnel?${query}`);
  return {
    status: answer.statusCode,
    html: answer.body,
    csp: String(answer.headers['content-security-policy']),
  };
}

/** The numbers of one step (or other event) as the page shows them. */
function step(html: string, id: string) {
  const start = html.indexOf(`id="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  const li = html.slice(start, html.indexOf('</li>', start));
  const take = (pattern: RegExp) => pattern.exec(li)?.[1];
  return {
    count: take(/<strong class="count">([^<]*)<\/strong>/),
    conversion: take(/<span class="conversion">([^<]*)<\/span>/),
    before: take(/<small class="conversion-before">([^<]*)<\/small>/),
    previous: take(/<span class="previous">([^<]*)<\/span>/),
    change: take(/<small class="change">([^<]*)<\/small>/),
    title: take(/<title>([^<]*)<\/title>/),
    width: Number(take(/width="([\d.]+)" height="16" class="bar-(?:step|side)"/)),
  };
}

describe('the operators’ funnel page', () => {
  it('shows every step with its count, its conversion and the previous period beside', async () => {
    const { status, html } = await page(`${RANGE}&lang=en`);
    expect(status).toBe(200);
    expect(html).toContain('2026-06-21 to 2026-06-30 (China time), 10 days.');
    expect(html).toContain('2026-06-11 to 2026-06-20');
    expect(step(html, 'step-viewed')).toMatchObject({
      count: '1,100',
      conversion: 'First step',
      previous: '800',
      change: '+37.5%',
    });
    expect(step(html, 'step-open_tapped')).toMatchObject({
      count: '250',
      conversion: '22.7%',
      before: 'was 25.0%',
      previous: '200',
      change: '+25.0%',
    });
    expect(step(html, 'step-store_fallback')).toMatchObject({
      count: '40',
      conversion: '16.0%',
      previous: '30',
      change: '+33.3%',
    });
    expect(step(html, 'step-handoff_minted')).toMatchObject({
      count: '30',
      conversion: '75.0%',
      previous: '20',
      change: '+50.0%',
    });
    // Installs are named as such: a share code claimed.
    expect(html).toContain('Installed (code claimed)');
    expect(step(html, 'step-handoff_claimed')).toMatchObject({
      count: '12',
      conversion: '40.0%',
      previous: '8',
      change: '+50.0%',
    });
    // The other events: a share of views, and the period before (nothing before: "new").
    expect(step(html, 'side-guide_shown')).toMatchObject({
      count: '120',
      conversion: '10.9%',
      previous: '0',
      change: 'new',
    });
    expect(step(html, 'side-link_copied')).toMatchObject({ previous: '40', change: '−25.0%' });
    // Hover values: each bar's <title>.
    expect(step(html, 'step-viewed').title).toBe('Viewed: 1,100 (Previous 10 days: 800)');
  });

  it('draws every bar on one scale: linear lengths in proportion, a log scale that says so', async () => {
    const linear = (await page(`${RANGE}&lang=en&scale=linear`)).html;
    expect(linear).toContain('linear scale from 0');
    const views = step(linear, 'step-viewed').width;
    // The guide's views against the page views' bar: 120 / 1,100.
    expect(step(linear, 'side-guide_shown').width / views).toBeCloseTo(120 / 1100, 3);
    expect(step(linear, 'step-handoff_claimed').width / views).toBeCloseTo(12 / 1100, 3);
    // The default: logarithmic, said on the page; minted and claimed far from zero.
    const log = (await page(`${RANGE}&lang=en`)).html;
    expect(log).toContain('Bars on a logarithmic scale');
    expect(step(log, 'step-handoff_minted').width).toBeGreaterThan(300);
    expect(step(log, 'step-handoff_claimed').width).toBeGreaterThan(200);
    expect(step(log, 'side-guide_shown').width).toBeLessThan(step(log, 'step-viewed').width);
  });

  it('shows one channel alone, the by-channel table still every channel', async () => {
    const { status, html } = await page(`${RANGE}&channel=safari&lang=en`);
    expect(status).toBe(200);
    expect(html).toContain('Channel: Safari only.');
    expect(html).toMatch(/<option value="safari" selected>/);
    expect(step(html, 'step-viewed')).toMatchObject({
      count: '400',
      previous: '300',
      change: '+33.3%',
    });
    expect(step(html, 'step-open_tapped')).toMatchObject({ count: '100', conversion: '25.0%' });
    expect(step(html, 'step-handoff_claimed')).toMatchObject({ count: '12', previous: '8' });
    const wechat = /<tr id="by-channel-wechat">(.*?)<\/tr>/.exec(html)?.[1] ?? '';
    expect(wechat).toContain('<td>600</td>');
    expect(wechat).toContain('>500 <small>+20.0%</small>');
    // Each channel's name leads to the page of that channel alone, the range kept.
    expect(html).toContain('href="/funnel?from=2026-06-21&amp;to=2026-06-30&amp;channel=wechat');
  });

  it('without a range: the last 30 days up to today; in Chinese, installs named too', async () => {
    const { status, html } = await page('lang=zh-CN');
    expect(status).toBe(200);
    expect(html).toContain('2026-06-01 至 2026-06-30（北京时间），共 30 天。');
    expect(html).toContain('安装（口令被领取）');
    // 2026-06-10 is in these 30 days; 2026-07-01 is not.
    expect(step(html, 'step-viewed').count).toBe((9999 + 1100 + 800).toLocaleString('en-US'));
  });

  it('refuses a bad, reversed or too long period with a 400 that says why, the form kept', async () => {
    for (const [query, message] of [
      ['from=2026-06-30&to=2026-06-01', '“From” is after “To”: swap the two days.'],
      ['from=2026-06-01&to=2026-02-30', '“To” is not a day'],
      ['from=junk&to=2026-06-01', '“From” is not a day'],
      ['from=2025-06-01&to=2026-06-01', 'At most 180 days at once'],
      [`${RANGE}&channel=fax`, 'There is no such channel'],
      [`${RANGE}&scale=cubic`, 'The scale is either logarithmic or linear.'],
    ] as const) {
      const { status, html } = await page(`${query}&lang=en`);
      expect(status, query).toBe(400);
      expect(html, query).toContain('role="alert"');
      expect(html, query).toContain(message);
      // Nothing is drawn for a period that cannot be shown; the form is there to fix it.
      expect(html, query).not.toContain('id="step-viewed"');
      expect(html, query).toContain('<form class="card wide range-form" method="get"');
    }
    const reversed = (await page('from=2026-06-30&to=2026-06-01&lang=en')).html;
    expect(reversed).toContain('name="from" value="2026-06-30"');
    expect(reversed).toContain('aria-invalid="true"');
  });

  it('runs no script and keeps its strict policy: its form may only come back to it', async () => {
    const { html, csp } = await page(`${RANGE}&lang=en`);
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/\sstyle=/);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("form-action 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });
});
