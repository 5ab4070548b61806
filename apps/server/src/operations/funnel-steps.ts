import { FUNNEL_EVENTS, FUNNEL_STEPS, type FunnelEvent } from '@guquan/contract/funnel-events';
import type { EventCounts } from '@guquan/contract/funnel';
import { escapeHtml } from '../http/html-escape.ts';
import { barScale, type BarScale } from './bar-scale.ts';
import type { BarScaleKind } from './funnel-page-query.ts';
import type { OperatorsTexts } from './operators-texts.ts';

/**
 * The funnel as the operators read it, without a line of script: each step with its count, its
 * conversion from the step before, and the previous period's count with the change; the other
 * events below, as a share of views. Every bar (steps and other events) is drawn on one scale,
 * its value in an SVG <title> for the pointer; every number is also text on the page.
 */
export const SIDE_EVENTS = FUNNEL_EVENTS.filter(
  (event) => !(FUNNEL_STEPS as readonly FunnelEvent[]).includes(event),
);

export const formatNumber = (value: number) => value.toLocaleString('en-US');

/** `part` as a share of `whole`, or a dash when there is no whole. */
export function percent(part: number, whole: number): string {
  return whole === 0 ? '—' : `${((part / whole) * 100).toFixed(1)}%`;
}

/** How `now` compares with `before`: +12.5%, −3.0%, 0.0%, "new" from nothing, a dash for 0 → 0. */
export function change(now: number, before: number, text: OperatorsTexts): string {
  if (before === 0) return now === 0 ? '—' : text.steps.changeNew;
  const share = ((now - before) / before) * 100;
  const rounded = share.toFixed(1);
  if (rounded === '0.0' || rounded === '-0.0') return '0.0%';
  return share > 0 ? `+${rounded}%` : `−${rounded.slice(1)}%`;
}

/** The scale's marks as a row under the bars' column (labels only; the bars draw the lines). */
function axis(scale: BarScale, language: string): string {
  const compact = new Intl.NumberFormat(language, { notation: 'compact' });
  const [first = 0, ...rest] = scale.ticks;
  const cells = rest
    .map(
      (tick, index) =>
        `<span>${index === 0 ? `<span class="axis-start">${compact.format(first)}</span>` : ''}<span class="axis-mark">${compact.format(tick)}</span></span>`,
    )
    .join('');
  return `<div class="axis axis-${rest.length}" aria-hidden="true">${cells}</div>`;
}

/** One bar on the scale, with the scale's marks as faint lines and its value as a title. */
function bar(value: number, title: string, scale: BarScale, kind: 'step' | 'side'): string {
  const width = 1000;
  const marks = scale.ticks
    .slice(1, -1)
    .map((_, index) => {
      const x = (((index + 1) / (scale.ticks.length - 1)) * width).toFixed(1);
      return `<line x1="${x}" x2="${x}" y1="0" y2="16" class="bar-mark" vector-effect="non-scaling-stroke"/>`;
    })
    .join('');
  const length = (scale.position(value) * width).toFixed(1);
  // The numbers are text beside the bar; the bar's title is for the pointer.
  return (
    `<svg class="bar" viewBox="0 0 ${width} 16" preserveAspectRatio="none" aria-hidden="true" focusable="false">` +
    `<g><title>${escapeHtml(title)}</title>` +
    `<rect x="0" y="0" width="${width}" height="16" class="bar-track"/>` +
    `<rect x="0" y="0" width="${length}" height="16" class="bar-${kind}"/>${marks}</g></svg>`
  );
}

interface Row {
  event: FunnelEvent;
  number: string;
  share: string;
  shareBefore: string;
}

function stepRow(
  { event, number, share, shareBefore }: Row,
  current: EventCounts,
  previous: EventCounts,
  days: number,
  scale: BarScale,
  kind: 'step' | 'side',
  text: OperatorsTexts,
  shareLabel: string,
): string {
  const name = text.events[event];
  const count = current[event];
  const before = previous[event];
  const title = `${name}: ${formatNumber(count)} (${text.steps.previous(days)}: ${formatNumber(before)})`;
  const cell = (role: string, label: string, value: string, extra = '') =>
    `<span class="cell cell-${role}"><span class="cell-label">${escapeHtml(label)}</span> <span class="cell-value">${value}</span>${extra}</span>`;
  return (
    `<li class="step" id="${kind}-${event}">` +
    `<span class="step-name">${number ? `<span class="step-number">${number}</span> ` : ''}${escapeHtml(name)}</span>` +
    bar(count, title, scale, kind) +
    cell('count', text.steps.count, `<strong class="count">${formatNumber(count)}</strong>`) +
    cell(
      'share',
      shareLabel,
      `<span class="conversion">${escapeHtml(share)}</span>`,
      shareBefore && shareBefore !== '—'
        ? ` <small class="conversion-before">${escapeHtml(text.steps.was(shareBefore))}</small>`
        : '',
    ) +
    cell(
      'previous',
      text.steps.previous(days),
      `<span class="previous">${formatNumber(before)}</span>`,
      ` <small class="change">${escapeHtml(change(count, before, text))}</small>`,
    ) +
    `</li>`
  );
}

/** The header row of a list of steps: the axis over the bars, the columns' names beside. */
function headRow(
  scale: BarScale,
  text: OperatorsTexts,
  shareLabel: string,
  days: number,
  language: string,
): string {
  return (
    `<li class="step step-head" aria-hidden="true"><span class="step-name"></span>${axis(scale, language)}` +
    `<span class="cell cell-count">${escapeHtml(text.steps.count)}</span><span class="cell cell-share">${escapeHtml(shareLabel)}</span><span class="cell cell-previous">${escapeHtml(text.steps.previous(days))}</span></li>`
  );
}

export interface FunnelStepsOptions {
  current: EventCounts;
  previous: EventCounts;
  days: number;
  scaleKind: BarScaleKind;
  /** The same page with the other scale. */
  otherScaleHref: string;
  language: string;
  text: OperatorsTexts;
}

export function funnelStepsSection({
  current,
  previous,
  days,
  scaleKind,
  otherScaleHref,
  language,
  text,
}: FunnelStepsOptions): string {
  const scale = barScale(scaleKind, Math.max(...FUNNEL_EVENTS.map((event) => current[event])));
  const steps = FUNNEL_STEPS.map((event, index) => {
    const before = index === 0 ? undefined : FUNNEL_STEPS[index - 1];
    const row: Row = {
      event,
      number: `${index + 1}`,
      share: before === undefined ? text.steps.firstStep : percent(current[event], current[before]),
      shareBefore: before === undefined ? '' : percent(previous[event], previous[before]),
    };
    return stepRow(row, current, previous, days, scale, 'step', text, text.steps.fromPrevious);
  }).join('');
  const sides = SIDE_EVENTS.map((event) =>
    stepRow(
      {
        event,
        number: '',
        share: percent(current[event], current.viewed),
        shareBefore: percent(previous[event], previous.viewed),
      },
      current,
      previous,
      days,
      scale,
      'side',
      text,
      text.steps.ofViews,
    ),
  ).join('');
  const scaleNote = scaleKind === 'log' ? text.steps.logScale : text.steps.linearScale;
  return (
    `<section class="card wide" aria-labelledby="funnel"><h2 id="funnel">${escapeHtml(text.funnel)}</h2>` +
    `<p class="note scale-note">${escapeHtml(scaleNote)} <a href="${escapeHtml(otherScaleHref)}">${escapeHtml(text.steps.otherScale)}</a></p>` +
    `<ol class="steps">${headRow(scale, text, text.steps.fromPrevious, days, language)}${steps}</ol>` +
    `<p class="note">${escapeHtml(text.steps.installs)}</p>` +
    `<h3 id="side-events">${escapeHtml(text.steps.sideEvents)}</h3><p class="note">${escapeHtml(text.steps.sameScale)}</p>` +
    `<ul class="steps" aria-labelledby="side-events">${headRow(scale, text, text.steps.ofViews, days, language)}${sides}</ul>` +
    `</section>`
  );
}
