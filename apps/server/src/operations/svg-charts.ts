import { escapeHtml } from '../http/html-escape.ts';

/**
 * Charts drawn on the server as SVG (no script on the operators' page): horizontal bars, grouped
 * bars and lines over days. Each is decorative for assistive technology (`aria-hidden`): the page
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

/** Chart width in user units: the SVG scales to its column (font stays readable on a phone). */
const WIDTH = 480;
const FONT = 14;
const LABEL_WIDTH = 170;
const VALUE_WIDTH = 64;

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

export interface Bar {
  label: string;
  value: number;
}

/** One horizontal bar per label, its value at its end. */
export function barChart(bars: readonly Bar[], color: string = SERIES_COLORS[0]): string {
  const row = 28;
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  const plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const body = bars
    .map((bar, index) => {
      const y = index * row;
      const width = Math.max(bar.value > 0 ? 1 : 0, (bar.value / max) * plot);
      return (
        `<text x="${LABEL_WIDTH - 8}" y="${y + row / 2}" text-anchor="end" dominant-baseline="middle">${escapeHtml(fit(bar.label))}</text>` +
        `<rect x="${LABEL_WIDTH}" y="${y + 5}" width="${width.toFixed(1)}" height="${row - 10}" fill="${color}"/>` +
        `<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + row / 2}" dominant-baseline="middle">${formatNumber(bar.value)}</text>`
      );
    })
    .join('');
  return svg(bars.length * row, body);
}

export interface Series {
  name: string;
  values: readonly number[];
}

/** One line of the legend: `series` are the chart's from `first` on (their colours follow). */
function legend(series: readonly Series[], y: number, first: number): string {
  let x = 0;
  return series
    .map((one, index) => {
      const color = SERIES_COLORS[(first + index) % SERIES_COLORS.length] ?? SERIES_COLORS[0];
      const item = `<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${color}"/><text x="${x + 16}" y="${y}">${escapeHtml(one.name)}</text>`;
      x += 24 + textWidth(one.name);
      return item;
    })
    .join('');
}

/** Groups of bars (say, one group per channel, one bar per funnel step), with a legend. */
export function groupedBarChart(groups: readonly string[], series: readonly Series[]): string {
  const bar = 9;
  const gap = 10;
  const groupHeight = series.length * bar + gap;
  const max = Math.max(1, ...series.flatMap((one) => one.values));
  const plot = WIDTH - LABEL_WIDTH - VALUE_WIDTH;
  const legendHeight = 24 * Math.ceil(series.length / 3);
  const body = groups
    .map((group, groupIndex) => {
      const top = legendHeight + groupIndex * groupHeight;
      const bars = series
        .map((one, index) => {
          const value = one.values[groupIndex] ?? 0;
          const width = Math.max(value > 0 ? 1 : 0, (value / max) * plot);
          const color = SERIES_COLORS[index % SERIES_COLORS.length] ?? SERIES_COLORS[0];
          return `<rect x="${LABEL_WIDTH}" y="${top + index * bar}" width="${width.toFixed(1)}" height="${bar - 1}" fill="${color}"/>`;
        })
        .join('');
      const first = series[0]?.values[groupIndex] ?? 0;
      return (
        `<text x="${LABEL_WIDTH - 8}" y="${top + (series.length * bar) / 2}" text-anchor="end" dominant-baseline="middle">${escapeHtml(fit(group))}</text>` +
        bars +
        `<text x="${WIDTH - VALUE_WIDTH + 4}" y="${top + (series.length * bar) / 2}" dominant-baseline="middle" font-size="${FONT - 2}">${formatNumber(first)}</text>`
      );
    })
    .join('');
  const legends = [0, 1, 2]
    .map((line) => legend(series.slice(line * 3, line * 3 + 3), 16 + line * 24, line * 3))
    .join('');
  return svg(legendHeight + groups.length * groupHeight, legends + body);
}

/** A round number at least `max`, for the top of the axis. */
function niceMax(max: number): number {
  if (max <= 5) return 5;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * magnitude >= max) ?? 10;
  return step * magnitude;
}

/** Lines over days (x: `days`, labelled MM-DD every week), a legend above. */
export function lineChart(days: readonly string[], series: readonly Series[]): string {
  const legendHeight = 24 * Math.ceil(series.length / 3);
  const left = 48;
  const right = 8;
  const plotTop = legendHeight + 8;
  const plotHeight = 200;
  const bottom = plotTop + plotHeight;
  const max = niceMax(Math.max(0, ...series.flatMap((one) => one.values)));
  const x = (index: number) =>
    left + (days.length <= 1 ? 0 : (index / (days.length - 1)) * (WIDTH - left - right));
  const y = (value: number) => bottom - (value / max) * plotHeight;
  const grid = [0, 0.25, 0.5, 0.75, 1]
    .map((share) => {
      const value = max * share;
      return `<line x1="${left}" x2="${WIDTH - right}" y1="${y(value).toFixed(1)}" y2="${y(value).toFixed(1)}" stroke="#ddd"/><text x="${left - 6}" y="${y(value).toFixed(1)}" text-anchor="end" dominant-baseline="middle" font-size="${FONT - 2}">${formatNumber(Math.round(value))}</text>`;
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
  const legends = [0, 1, 2]
    .map((line) => legend(series.slice(line * 3, line * 3 + 3), 16 + line * 24, line * 3))
    .join('');
  return svg(bottom + 26, legends + grid + ticks + lines);
}
