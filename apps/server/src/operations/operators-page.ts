import { FUNNEL_EVENTS, FUNNEL_STEPS, type FunnelEvent } from '@guquan/contract/funnel-events';
import type { EventCounts } from '@guquan/contract/funnel';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { sharePagePath } from '@guquan/contract/share-paths';
import type { FunnelReport } from '../funnel/funnel-report.ts';
import { escapeHtml } from '../http/html-escape.ts';
import type { ChannelBacklog, OutboxFailure } from '../outbox/outbox-repository.ts';
import { OPERATORS_TEXTS, type OperatorsTexts } from './operators-texts.ts';
import { barChart, groupedBarChart, lineChart } from './svg-charts.ts';

/**
 * The operators' page (on the operators' listener only): the share funnel of the last 30 days as
 * charts drawn here in SVG, each with the numbers behind it in a table for screen readers, and the
 * 20 most viewed items with their own funnels. No script; every text is escaped (item titles are
 * users' content).
 */
export const OPERATORS_STYLESHEET_PATH = '/operators.css';
export const OPERATORS_PAGE_PATH = '/funnel';
export const FUNNEL_API_PATH = '/api/funnel';

const OTHER_EVENTS = FUNNEL_EVENTS.filter(
  (event) => !(FUNNEL_STEPS as readonly FunnelEvent[]).includes(event),
);

const formatNumber = (value: number) => value.toLocaleString('en-US');

function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((part / whole) * 100).toFixed(1)}%`;
}

/** A table with a caption, a header row and rows whose first cell heads the row. */
function table(
  caption: string,
  head: readonly string[],
  rows: readonly (readonly string[])[],
  hidden: boolean,
): string {
  const headRow = head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('');
  const body = rows
    .map(
      ([first = '', ...rest]) =>
        `<tr><th scope="row">${escapeHtml(first)}</th>${rest.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`,
    )
    .join('');
  const html = `<table><caption>${escapeHtml(caption)}</caption><thead><tr>${headRow}</tr></thead><tbody>${body}</tbody></table>`;
  // A table is never narrower than its content: the box around it is what is hidden.
  return hidden ? `<div class="visually-hidden">${html}</div>` : html;
}

function figure(id: string, heading: string, chart: string, numbers: string): string {
  return `<section class="card" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(heading)}</h2><figure>${chart}${numbers}</figure></section>`;
}

function countsRow(label: string, counts: EventCounts, events: readonly FunnelEvent[]): string[] {
  return [label, ...events.map((event) => formatNumber(counts[event]))];
}

function funnelSection(report: FunnelReport, text: OperatorsTexts): string {
  const views = report.totals.viewed;
  const steps = barChart(
    FUNNEL_STEPS.map((event) => ({ label: text.events[event], value: report.totals[event] })),
  );
  const others = barChart(
    OTHER_EVENTS.map((event) => ({ label: text.events[event], value: report.totals[event] })),
    '#999999',
  );
  const numbers = table(
    text.funnel,
    [text.step, text.count, text.ofViews],
    FUNNEL_EVENTS.map((event) => [
      text.events[event],
      formatNumber(report.totals[event]),
      percent(report.totals[event], views),
    ]),
    true,
  );
  return figure('funnel', text.funnel, steps + others, numbers);
}

function perDaySection(report: FunnelReport, text: OperatorsTexts): string {
  const chart = lineChart(
    report.days.map((day) => day.day),
    FUNNEL_STEPS.map((event) => ({
      name: text.events[event],
      values: report.days.map((day) => day.counts[event]),
    })),
  );
  const numbers = table(
    text.perDay,
    [text.day, ...FUNNEL_STEPS.map((event) => text.events[event])],
    report.days.map((day) => countsRow(day.day, day.counts, FUNNEL_STEPS)),
    true,
  );
  return figure('per-day', text.perDay, chart, numbers);
}

function splitSection(
  id: string,
  heading: string,
  head: string,
  groups: readonly { label: string; counts: EventCounts }[],
  text: OperatorsTexts,
): string {
  const chart = groupedBarChart(
    groups.map((group) => group.label),
    FUNNEL_STEPS.map((event) => ({
      name: text.events[event],
      values: groups.map((group) => group.counts[event]),
    })),
  );
  const numbers = table(
    heading,
    [head, ...FUNNEL_EVENTS.map((event) => text.events[event])],
    groups.map((group) => countsRow(group.label, group.counts, FUNNEL_EVENTS)),
    true,
  );
  return figure(id, heading, chart, numbers);
}

function topItemsSection(report: FunnelReport, text: OperatorsTexts, publicOrigin: string): string {
  if (report.topItems.length === 0) {
    return `<section class="card wide" aria-labelledby="top-items"><h2 id="top-items">${escapeHtml(text.topItems)}</h2><p>${escapeHtml(text.topItemsNone)}</p></section>`;
  }
  const head = [
    '#',
    text.item,
    text.kind,
    ...FUNNEL_STEPS.map((event) => text.events[event]),
    text.openRate,
  ];
  const rows = report.topItems
    .map((item, index) => {
      const href = `${publicOrigin}${BASE_PATH}${sharePagePath(item.kind, item.id)}`;
      const api = `${FUNNEL_API_PATH}?from=${report.range.from}&to=${report.range.to}&kind=${item.kind}&id=${encodeURIComponent(item.id)}`;
      const name = item.title ?? text.untitled;
      return (
        `<tr><td>${index + 1}</td>` +
        `<th scope="row"><a href="${escapeHtml(href)}">${escapeHtml(name)}</a><br><small><code>${escapeHtml(item.id)}</code> · <a href="${escapeHtml(api)}">${escapeHtml(text.json)}</a></small></th>` +
        `<td>${escapeHtml(text.kinds[item.kind])}</td>` +
        FUNNEL_STEPS.map((event) => `<td>${formatNumber(item.counts[event])}</td>`).join('') +
        `<td>${percent(item.counts.open_tapped, item.counts.viewed)}</td></tr>`
      );
    })
    .join('');
  return (
    `<section class="card wide" aria-labelledby="top-items"><h2 id="top-items">${escapeHtml(text.topItems)}</h2>` +
    `<div class="scroll" role="region" aria-label="${escapeHtml(text.scrollableTable)}" tabindex="0"><table><thead><tr>${head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div></section>`
  );
}

/** What the outbox's section shows: counts and errors, never an id, a number or an event. */
export interface OutboxSummary {
  backlog: Readonly<Record<'text' | 'platform_events', ChannelBacklog>>;
  failures: readonly OutboxFailure[];
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

function outboxSection(outbox: OutboxSummary, text: OperatorsTexts): string {
  const t = text.outbox;
  const th = (cells: readonly string[]) =>
    `<thead><tr>${cells.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('')}</tr></thead>`;
  const backlog = (['text', 'platform_events'] as const)
    .map((channel) => {
      const state = outbox.backlog[channel];
      return `<tr><th scope="row">${escapeHtml(t.channels[channel])}</th><td>${formatNumber(state.depth)}</td><td>${state.depth === 0 ? '–' : duration(state.oldestAgeSeconds)}</td></tr>`;
    })
    .join('');
  const errors =
    outbox.failures.length === 0
      ? `<p>${escapeHtml(t.noErrors)}</p>`
      : `<div class="scroll" role="region" aria-label="${escapeHtml(text.scrollableTable)}" tabindex="0"><table>${th([t.channel, t.kind, t.attempts, t.error, t.next])}<tbody>${outbox.failures
          .map(
            (failure) =>
              `<tr><td>${escapeHtml(t.channels[failure.channel])}</td><td><code>${escapeHtml(failure.kind)}</code></td><td>${formatNumber(failure.attempts)}</td><td>${escapeHtml(failure.error)}</td><td>${escapeHtml(failure.givenUpAt === null ? (failure.nextAttemptAt ?? '') : `${t.givenUp} ${failure.givenUpAt}`)}</td></tr>`,
          )
          .join('')}</tbody></table></div>`;
  return (
    `<section class="card wide" aria-labelledby="outbox"><h2 id="outbox">${escapeHtml(t.heading)}</h2>` +
    `<table>${th([t.channel, t.waiting, t.oldest])}<tbody>${backlog}</tbody></table>` +
    `<h3>${escapeHtml(t.errors)}</h3>${errors}</section>`
  );
}

export interface OperatorsPageOptions {
  report: FunnelReport;
  /** The outbox's backlog and last errors (outbox/outbox-repository.ts). */
  outbox?: OutboxSummary;
  language: Language;
  /** The site's public origin: the top items link to their share pages there. */
  publicOrigin: string;
}

export function operatorsPage({
  report,
  outbox,
  language,
  publicOrigin,
}: OperatorsPageOptions): string {
  const text = OPERATORS_TEXTS[language];
  const other: Language = language === 'en' ? 'zh-CN' : 'en';
  const { from, to } = report.range;
  const channels = report.channels.map(({ channel, counts }) => ({
    label: text.channels[channel],
    counts,
  }));
  const kinds = report.kinds.map(({ kind, counts }) => ({ label: text.kinds[kind], counts }));
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${escapeHtml(text.title)}</title>
<link rel="stylesheet" href="${OPERATORS_STYLESHEET_PATH}">
</head>
<body>
<main>
<header>
<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.intro(from, to))}</p>
<p class="note">${escapeHtml(text.privacy)}</p>
<p><a href="${OPERATORS_PAGE_PATH}?lang=${other}" lang="${other}" hreflang="${other}">${escapeHtml(text.otherLanguage)}</a></p>
</header>
<div class="grid">
${funnelSection(report, text)}
${perDaySection(report, text)}
${splitSection('by-channel', text.byChannel, text.channel, channels, text)}
${splitSection('by-kind', text.byKind, text.kind, kinds, text)}
${topItemsSection(report, text, publicOrigin)}
${outbox ? outboxSection(outbox, text) : ''}
</div>
<footer>
<h2>${escapeHtml(text.links)}</h2>
<ul>
<li><a href="${FUNNEL_API_PATH}?from=${from}&amp;to=${to}">${escapeHtml(text.json)}: ${FUNNEL_API_PATH}</a></li>
<li><a href="/metrics">${escapeHtml(text.metrics)}</a></li>
<li><a href="/health/ready">${escapeHtml(text.readiness)}</a></li>
</ul>
</footer>
</main>
</body>
</html>
`;
}

export const OPERATORS_STYLESHEET = `:root { color-scheme: light; font-family: system-ui, -apple-system, "PingFang SC", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif; color: #1a1a1a; background: #f4f5f7; }
body { margin: 0; }
main { max-width: 1120px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
h2 { font-size: 1.125rem; margin: 0 0 12px; }
.note { color: #4a4a4a; font-size: 0.875rem; }
.grid { display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } .wide { grid-column: 1 / -1; } }
.card { background: #fff; border-radius: 8px; padding: 16px; box-shadow: 0 1px 2px rgb(0 0 0 / 8%); }
figure { margin: 0; }
.chart { display: block; width: 100%; height: auto; max-width: 600px; }
.chart text { fill: #1a1a1a; }
.scroll { overflow-x: auto; }
.scroll:focus-visible { outline: 2px solid #0072B2; outline-offset: 2px; }
table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 8px; border-bottom: 1px solid #e3e3e3; text-align: right; white-space: nowrap; }
th[scope="row"], thead th:nth-child(2) { text-align: left; white-space: normal; min-width: 12em; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
a { color: #005a8c; }
footer { margin-top: 24px; font-size: 0.875rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;
