import { escapeHtml } from '../http/html-escape.ts';
import { barScale } from './bar-scale.ts';
import type { BarScaleKind } from './funnel-page-query.ts';

/**
 * Charts drawn on the server as SVG (no script on the operators' page): grouped bars and lines
 * over days. Each is decorative for assistive technology (`aria-hidden`): the page
 * puts the numbers behind it in a table. Every text is escaped; the charts hold no user content
 * except labels passed in, which are escaped too.
 */

/** Okabe–Ito: told apart with the common colour-vision deficiencies. */
export const SERIES_COLORS = [
  '#0072B2',
  '#E69F00',
  '#009E73',
  '#CC79A7',
  '#56B4E9',
  '#D55E00',
  '#999999',
] as const;

/**
 * Chart width in user units: the SVG scales to its column, so on a phone (about 330 px) a unit is
 * about 0.8 px and the 14-unit font still reads at 11 px or more.
 */
const WIDTH = 400;
const FONT = 14;
const LABEL_WIDTH = 170;
const VALUE_WIDTH = 56;

/** Roughly how wide a text is in the chart's font: CJK a full em, others a little over half. */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[\u2e80-\uffef]/.test(char) ? FONT : FONT * 0.58;
  return width;
}

/** A label cut to fit its column (the table behind the chart has it whole). */
function fit(label: string, max = LABEL_WIDTH - 12): string {
  if (textWidth(label) <= max) return label;
  let cut = '';
  for (const char of label) {
    if (textWidth(`${cut}${char}…`) > max) break;
    cut += char;
  }
  return `${cut}…`;
}

function svg(height: number, body: string): string {
  return `<svg class="chart" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" aria-hidden="true" focusable="false" font-size="${FONT}">${body}</svg>`;
}

const formatNumber = (value: number) => value.toLocaleString('en-US');

export interface Series {
  name: string;
  values: readonly number[];
}

/** The legend, flowing onto as many lines as it needs; returns its markup and height. */
function legend(series: readonly Series[]): { markup: string; height: number } {
  let x = 0;
  let line = 0;
  const markup = series
    .map((one, index) => {
      const width = 24 + textWidth(one.name);
      if (x > 0 && x + width > WIDTH) {
        x = 0;
        line += 1;
      }
      const y = 16 + line * 24;
      const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
      const item = `<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${color}"/><text x="${x + 16}" y="${y}">${escapeHtml(one.name)}</text>`;
      x += width;
      return item;
    })
    .join('');
  return { markup, height: 24 * (line + 1) };
}

/**
 * Groups of bars (say, one group per channel, one bar per funnel step), with a legend; every bar
 * on one scale (the page's: linear or logarithmic), its value in a <title> for the pointer.
 */
export function groupedBarChart(
  groups: readonly string[],
  series: readonly Series[],
  scaleKind: BarScaleKind,
): string {
  const bar = 9;
  const gap = 10;
  const groupHeight = series.length * bar + gap;
  const scale = barScale(scaleKind, Math.max(0, ...series.flatMap((one) => one.values)));
  // The labels' column as wide as the longest label needs (at most LABEL_WIDTH; longer is cut).
  const labelWidth = Math.min(LABEL_WIDTH, 16 + Math.max(0, ...groups.map(textWidth)));
  const plot = WIDTH - labelWidth - VALUE_WIDTH;
  const { markup: legends, height: legendHeight } = legend(series);
  const body = groups
    .map((group, groupIndex) => {
      const top = legendHeight + groupIndex * groupHeight;
      const bars = series
        .map((one, index) => {
          const value = one.values[groupIndex] ?? 0;
          const width = scale.position(value) * plot;
          const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
          return `<rect x="${labelWidth}" y="${top + index * bar}" width="${width.toFixed(1)}" height="${bar - 1}" fill="${color}"><title>${escapeHtml(`${group} · ${one.name}: ${formatNumber(value)}`)}</title></rect>`;
        })
        .join('');
      const first = series[0]?.values[groupIndex] ?? 0;
      return (
        `<text x="${labelWidth - 8}" y="${top + (series.length * bar) / 2}" text-anchor="end" dominant-baseline="middle">${escapeHtml(fit(group))}</text>` +
        bars +
        `<text x="${WIDTH - VALUE_WIDTH + 4}" y="${top + (series.length * bar) / 2}" dominant-baseline="middle" font-size="${FONT - 2}">${formatNumber(first)}</text>`
      );
    })
    .join('');
  return svg(legendHeight + groups.length * groupHeight, legends + body);
}

/**
 * Lines over days (x: `days`, labelled MM-DD every week), a legend above, the y axis on the
 * page's scale (linear, or logarithmic with a mark at every power of ten); each day's numbers in
 * a <title> over its column, for the pointer.
 */
export function lineChart(
  days: readonly string[],
  series: readonly Series[],
  scaleKind: BarScaleKind,
): string {
  const { markup: legends, height: legendHeight } = legend(series);
  const left = 48;
  const right = 8;
  const plotTop = legendHeight + 8;
  const plotHeight = 200;
  const bottom = plotTop + plotHeight;
  const scale = barScale(scaleKind, Math.max(0, ...series.flatMap((one) => one.values)));
  const step = days.length <= 1 ? 0 : (WIDTH - left - right) / (days.length - 1);
  const x = (index: number) => left + index * step;
  const y = (value: number) => bottom - scale.position(value) * plotHeight;
  const grid = scale.ticks
    .map((value, index) => {
      const at = (bottom - (index / (scale.ticks.length - 1)) * plotHeight).toFixed(1);
      return `<line x1="${left}" x2="${WIDTH - right}" y1="${at}" y2="${at}" stroke="#ddd"/><text x="${left - 6}" y="${at}" text-anchor="end" dominant-baseline="middle" font-size="${FONT - 2}">${formatNumber(Math.round(value))}</text>`;
    })
    .join('');
  const ticks = days
    .map((day, index) =>
      // Every week from the first day, and the last day unless a label is close to it.
      index % 7 === 0 || (index === days.length - 1 && index % 7 >= 4)
        ? `<text x="${x(index).toFixed(1)}" y="${bottom + 18}" text-anchor="middle" font-size="${FONT - 2}">${escapeHtml(day.slice(5))}</text>`
        : '',
    )
    .join('');
  const lines = series
    .map((one, index) => {
      const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
      const points = one.values
        .map((value, day) => `${x(day).toFixed(1)},${y(value).toFixed(1)}`)
        .join(' ');
      return `<polyline points="${points}" fill="none" stroke="${color}" stroke-width="2" stroke-linejoin="round"/>`;
    })
    .join('');
  // A transparent column per day: its title holds that day's numbers.
  const columns = days
    .map((day, index) => {
      const title = [
        day,
        ...series.map((one) => `${one.name}: ${formatNumber(one.values[index] ?? 0)}`),
      ].join('\n');
      const width = Math.max(step, 4);
      return `<rect x="${(x(index) - width / 2).toFixed(1)}" y="${plotTop}" width="${width.toFixed(1)}" height="${plotHeight}" fill="transparent"><title>${escapeHtml(title)}</title></rect>`;
    })
    .join('');
  return svg(bottom + 26, legends + grid + ticks + lines + columns);
}
