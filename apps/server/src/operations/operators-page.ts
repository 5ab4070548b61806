import { FUNNEL_STEPS, type FunnelEvent } from '@guquan/contract/funnel-events';
import type { EventCounts } from '@guquan/contract/funnel';
import { FUNNEL_RETENTION_DAYS } from '@guquan/contract/funnel-events';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { sharePagePath } from '@guquan/contract/share-paths';
import { addDays, daySpan } from '../funnel/funnel-days.ts';
import type { FunnelReport } from '../funnel/funnel-report.ts';
import { escapeHtml } from '../http/html-escape.ts';
import type { ChannelBacklog, OutboxFailure } from '../outbox/outbox-repository.ts';
import { OPERATORS_PAGE_PATH, funnelForm, pageHref } from './funnel-form.ts';
import type { BarScaleKind, FormValues, QueryProblem } from './funnel-page-query.ts';
import { change, formatNumber, funnelStepsSection, percent } from './funnel-steps.ts';
import { OPERATORS_TEXTS, type OperatorsTexts } from './operators-texts.ts';
import { groupedBarChart, lineChart } from './svg-charts.ts';

/**
 * The operators' page (on the operators' listener only): a GET form for the period, the channel
 * and the scale; the share funnel of that period step by step (count, conversion from the step
 * before, the previous period of the same length and the change), the other events on the same
 * scale, a line per day, by channel and by kind, and the 20 most viewed items with their own
 * funnels. No script; every text is escaped (item titles are users' content).
 */
export const OPERATORS_STYLESHEET_PATH = '/operators.css';
export { OPERATORS_PAGE_PATH };
export const FUNNEL_API_PATH = '/api/funnel';

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

function figure(
  id: string,
  heading: string,
  chart: string,
  numbers: string,
  layout: 'narrow' | 'wide' = 'narrow',
): string {
  const section = layout === 'narrow' ? 'card' : 'card wide';
  return `<section class="${section}" aria-labelledby="${id}"><h2 id="${id}">${escapeHtml(heading)}</h2><figure>${chart}${numbers}</figure></section>`;
}

function countsRow(label: string, counts: EventCounts, events: readonly FunnelEvent[]): string[] {
  return [label, ...events.map((event) => formatNumber(counts[event]))];
}

function perDaySection(report: FunnelReport, text: OperatorsTexts, scale: BarScaleKind): string {
  const chart = lineChart(
    report.days.map((day) => day.day),
    FUNNEL_STEPS.map((event) => ({
      name: text.events[event],
      values: report.days.map((day) => day.counts[event]),
    })),
    scale,
  );
  const numbers = table(
    text.perDay,
    [text.day, ...FUNNEL_STEPS.map((event) => text.events[event])],
    report.days.map((day) => countsRow(day.day, day.counts, FUNNEL_STEPS)),
    true,
  );
  return figure('per-day', text.perDay, chart, numbers, 'wide');
}

interface Group {
  key: string;
  label: string;
  /** The page filtered to this group, when the page can be. */
  href?: string;
  counts: EventCounts;
  before: EventCounts;
}

/** A split (by channel, by kind): its chart, then every number in a table anyone can read. */
function splitSection(
  id: string,
  heading: string,
  head: string,
  groups: readonly Group[],
  days: number,
  scale: BarScaleKind,
  text: OperatorsTexts,
): string {
  const chart = groupedBarChart(
    groups.map((group) => group.label),
    FUNNEL_STEPS.map((event) => ({
      name: text.events[event],
      values: groups.map((group) => group.counts[event]),
    })),
    scale,
  );
  const th = (cell: string) => `<th scope="col">${escapeHtml(cell)}</th>`;
  const columns = [
    head,
    ...FUNNEL_STEPS.map((event) => text.events[event]),
    text.openRate,
    text.steps.viewsBefore(days),
    text.steps.installsBefore(days),
  ];
  const rows = groups
    .map((group) => {
      const name = group.href
        ? `<a href="${escapeHtml(group.href)}">${escapeHtml(group.label)}</a>`
        : escapeHtml(group.label);
      const was = (event: FunnelEvent) =>
        `<td>${formatNumber(group.before[event])} <small>${escapeHtml(change(group.counts[event], group.before[event], text))}</small></td>`;
      return (
        `<tr id="${id}-${group.key}"><th scope="row">${name}</th>` +
        FUNNEL_STEPS.map((event) => `<td>${formatNumber(group.counts[event])}</td>`).join('') +
        `<td>${percent(group.counts.open_tapped, group.counts.viewed)}</td>${was('viewed')}${was('handoff_claimed')}</tr>`
      );
    })
    .join('');
  const numbers = `<div class="scroll" role="region" aria-label="${escapeHtml(`${heading}: ${text.scrollableTable}`)}" tabindex="0"><table><caption class="visually-hidden">${escapeHtml(heading)}</caption><thead><tr>${columns.map(th).join('')}</tr></thead><tbody>${rows}</tbody></table></div>`;
  // The chart above its table: beside it, the table's last columns scrolled out of sight at 1280 px.
  return figure(id, heading, chart, numbers, 'wide');
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
    `<div class="scroll" role="region" aria-label="${escapeHtml(`${text.topItems}: ${text.scrollableTable}`)}" tabindex="0"><table><thead><tr>${head.map((cell) => `<th scope="col">${escapeHtml(cell)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div></section>`
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
      : `<div class="scroll" role="region" aria-label="${escapeHtml(`${t.errors}: ${text.scrollableTable}`)}" tabindex="0"><table>${th([t.channel, t.kind, t.attempts, t.error, t.next])}<tbody>${outbox.failures
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
  /** The period's numbers; undefined when the query was refused (then the form says why). */
  report: FunnelReport | undefined;
  /** The form as it was sent (or as the defaults fill it). */
  form: FormValues;
  problems?: readonly QueryProblem[];
  scale: BarScaleKind;
  /** Today, China time: the form's latest day and the quick ranges' end. */
  today: string;
  /** The outbox's backlog and last errors (outbox/outbox-repository.ts). */
  outbox?: OutboxSummary;
  language: Language;
  /** The site's public origin: the top items link to their share pages there. */
  publicOrigin: string;
}

function header(
  report: FunnelReport | undefined,
  form: FormValues,
  today: string,
  language: Language,
  text: OperatorsTexts,
): string {
  const other: Language = language === 'en' ? 'zh-CN' : 'en';
  const lines: string[] = [];
  if (report) {
    const { from, to } = report.range;
    const previous = report.previous.range;
    lines.push(text.intro(from, to, daySpan(from, to)));
    if (report.channel) lines.push(text.channelOnly(text.channels[report.channel]));
    lines.push(text.compared(previous.from, previous.to));
    if (previous.from < addDays(today, -(FUNNEL_RETENTION_DAYS - 1)))
      lines.push(text.steps.previousPartial);
  }
  return (
    `<header><h1>${escapeHtml(text.title)}</h1>` +
    (lines.length > 0 ? `<p class="period">${lines.map(escapeHtml).join('<br>')}</p>` : '') +
    `<p class="note">${escapeHtml(text.privacy)}</p>` +
    `<p><a href="${escapeHtml(pageHref(form, other))}" lang="${other}" hreflang="${other}">${escapeHtml(text.otherLanguage)}</a></p></header>`
  );
}

function reportSections(
  report: FunnelReport,
  form: FormValues,
  scale: BarScaleKind,
  language: Language,
  text: OperatorsTexts,
  publicOrigin: string,
): string {
  const days = daySpan(report.range.from, report.range.to);
  const before = (list: readonly { counts: EventCounts }[], index: number) =>
    list[index]?.counts ?? report.previous.totals;
  const channels: Group[] = report.channels.map(({ channel, counts }, index) => ({
    key: channel,
    label: text.channels[channel],
    href: pageHref({ ...form, channel }, language),
    counts,
    before: before(report.previous.channels, index),
  }));
  const kinds: Group[] = report.kinds.map(({ kind, counts }, index) => ({
    key: kind,
    label: text.kinds[kind],
    counts,
    before: before(report.previous.kinds, index),
  }));
  const kindHeading = report.channel
    ? `${text.byKind} · ${text.channels[report.channel]}`
    : text.byKind;
  return [
    funnelStepsSection({
      current: report.totals,
      previous: report.previous.totals,
      days,
      scaleKind: scale,
      otherScaleHref: pageHref({ ...form, scale: scale === 'log' ? 'linear' : 'log' }, language),
      language,
      text,
    }),
    perDaySection(report, text, scale),
    splitSection('by-channel', text.byChannel, text.channel, channels, days, scale, text),
    splitSection('by-kind', kindHeading, text.kind, kinds, days, scale, text),
    topItemsSection(report, text, publicOrigin),
  ].join('\n');
}

export function operatorsPage({
  report,
  form,
  problems = [],
  scale,
  today,
  outbox,
  language,
  publicOrigin,
}: OperatorsPageOptions): string {
  const text = OPERATORS_TEXTS[language];
  const range = report?.range;
  const api = range ? `${FUNNEL_API_PATH}?from=${range.from}&amp;to=${range.to}` : FUNNEL_API_PATH;
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
${header(report, form, today, language, text)}
<div class="grid">
${funnelForm({ form, problems, today, language, text })}
${report ? reportSections(report, form, scale, language, text, publicOrigin) : ''}
${outbox ? outboxSection(outbox, text) : ''}
</div>
<footer>
<h2>${escapeHtml(text.links)}</h2>
<ul>
<li><a href="${api}">${escapeHtml(text.json)}: ${FUNNEL_API_PATH}</a></li>
<li><a href="/metrics">${escapeHtml(text.metrics)}</a></li>
<li><a href="/health/ready">${escapeHtml(text.readiness)}</a></li>
</ul>
</footer>
</main>
</body>
</html>
`;
}

export const OPERATORS_STYLESHEET = `:root { color-scheme: light; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif; color: #1a1a1a; background: #f4f5f7; }
:lang(zh-CN) { font-family: system-ui, -apple-system, "PingFang SC", "Noto Sans CJK SC", "WenQuanYi Micro Hei", sans-serif; }
body { margin: 0; }
main { max-width: 1200px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; }
h2 { font-size: 1.125rem; margin: 0 0 12px; }
h3 { font-size: 1rem; margin: 20px 0 4px; }
.period { font-size: 1rem; line-height: 1.5; }
.note { color: #4a4a4a; font-size: 0.875rem; }
.grid { display: grid; gap: 16px; grid-template-columns: minmax(0, 1fr); }
@media (min-width: 900px) { .grid { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } .wide { grid-column: 1 / -1; } }
.card { background: #fff; border-radius: 8px; padding: 16px; box-shadow: 0 1px 2px rgb(0 0 0 / 8%); }
figure { margin: 0; }
.chart { display: block; width: 100%; height: auto; max-width: 520px; margin-bottom: 12px; }
.chart text { fill: #1a1a1a; }
.scroll { overflow-x: auto; }
.scroll:focus-visible { outline: 2px solid #0072B2; outline-offset: 2px; }
table { border-collapse: collapse; font-size: 0.875rem; font-variant-numeric: tabular-nums; }
th, td { padding: 6px 8px; border-bottom: 1px solid #e3e3e3; text-align: right; white-space: nowrap; }
thead th { white-space: normal; vertical-align: bottom; min-width: 4.5em; }
th[scope="row"], thead th:nth-child(2) { text-align: left; white-space: normal; min-width: 8em; }
td small { color: #4a4a4a; }
caption { text-align: left; font-weight: 600; padding-bottom: 4px; }
a { color: #005a8c; }
footer { margin-top: 24px; font-size: 0.875rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.range-form fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 12px 16px; align-items: end; }
.range-form legend { font-weight: 600; font-size: 1.125rem; margin-bottom: 8px; padding: 0; }
.range-form .field { display: flex; flex-direction: column; gap: 4px; font-size: 0.875rem; flex: 1 1 9em; min-width: 0; }
.range-form input, .range-form select, .range-form button { font: inherit; font-size: 1rem; min-height: 44px; padding: 6px 8px; border: 1px solid #8a8a8a; border-radius: 6px; background: #fff; color: #1a1a1a; box-sizing: border-box; width: 100%; }
.range-form button { width: auto; flex: 0 0 auto; background: #005a8c; color: #fff; border-color: #005a8c; padding: 6px 20px; cursor: pointer; }
.range-form :focus-visible { outline: 2px solid #0072B2; outline-offset: 2px; }
.range-form [aria-invalid="true"] { border: 2px solid #b00020; }
.quick { margin: 12px 0 0; font-size: 0.875rem; display: flex; flex-wrap: wrap; gap: 4px 12px; }
.errors { grid-column: 1 / -1; background: #fdecee; border: 2px solid #b00020; border-radius: 8px; padding: 12px 16px; }
.errors h2 { color: #8a0018; margin-bottom: 4px; }
.errors ul { margin: 0; padding-left: 1.25em; }
.steps { list-style: none; margin: 0; padding: 0; }
.step { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) auto; grid-template-areas: "name name count" "bar bar bar" "share previous previous"; gap: 4px 12px; padding: 10px 0; border-bottom: 1px solid #e3e3e3; align-items: center; }
.step-head { display: none; }
.step-name { grid-area: name; font-weight: 600; }
.step-number { display: inline-block; min-width: 1.5em; color: #4a4a4a; }
.step .bar { grid-area: bar; display: block; width: 100%; height: 16px; }
.cell-count { grid-area: count; text-align: right; }
.cell-share { grid-area: share; }
.cell-previous { grid-area: previous; text-align: right; }
.cell { font-size: 0.875rem; font-variant-numeric: tabular-nums; }
.cell-label { color: #4a4a4a; display: block; }
.cell-count .cell-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.count { font-size: 1.125rem; }
.conversion { font-weight: 600; }
.cell small { color: #4a4a4a; font-size: 0.8125rem; }
.bar-track { fill: #eef0f3; }
.bar-mark { stroke: #c4c8ce; stroke-width: 1; }
.bar-step { fill: #0072B2; }
.bar-side { fill: #6b6b6b; }
.axis { display: grid; font-size: 0.75rem; color: #4a4a4a; font-variant-numeric: tabular-nums; }
.axis > span { display: flex; justify-content: flex-end; }
.axis > span:first-child { justify-content: space-between; }
.axis-1 { grid-template-columns: repeat(1, 1fr); } .axis-2 { grid-template-columns: repeat(2, 1fr); } .axis-3 { grid-template-columns: repeat(3, 1fr); } .axis-4 { grid-template-columns: repeat(4, 1fr); } .axis-5 { grid-template-columns: repeat(5, 1fr); } .axis-6 { grid-template-columns: repeat(6, 1fr); } .axis-7 { grid-template-columns: repeat(7, 1fr); } .axis-8 { grid-template-columns: repeat(8, 1fr); } .axis-9 { grid-template-columns: repeat(9, 1fr); } .axis-10 { grid-template-columns: repeat(10, 1fr); }
@media (max-width: 719px) { .step-head { display: block; border-bottom: 0; padding-bottom: 0; } .step-head .cell, .step-head .step-name { display: none; } }
@media (min-width: 720px) {
  .step { grid-template-columns: minmax(10rem, 15rem) minmax(0, 1fr) 6.5rem 9rem 11rem; grid-template-areas: "name bar count share previous"; }
  .step-head { display: grid; font-size: 0.75rem; color: #4a4a4a; padding: 4px 0; }
  .step-head .axis { grid-area: bar; }
  .step-head .cell { text-align: right; }
  .cell-share { text-align: right; }
  .step:not(.step-head) .cell-label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
  .cell small { display: block; }
}
`;
