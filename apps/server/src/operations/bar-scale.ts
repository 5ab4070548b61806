import type { BarScaleKind } from './funnel-page-query.ts';

/**
 * One scale for every bar of a chart, so bars compare honestly: linear (0 to a round number,
 * marks every quarter) or logarithmic (1 to a power of ten, a mark at every power of ten), which
 * the page then says. Either way, a count above zero is never drawn as nothing.
 */
export interface BarScale {
  kind: BarScaleKind;
  /** The marks, equally spaced from the start to the end of the scale. */
  ticks: readonly number[];
  /** Where a count falls, from 0 (start) to 1 (end). */
  position: (value: number) => number;
}

/** The smallest share of the scale a count above zero is drawn with: a visible sliver. */
export const MIN_VISIBLE = 0.006;

/** A round number at least `max`, for the end of a linear scale. */
export function niceMax(max: number): number {
  if (max <= 4) return 4;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 2.5, 4, 5, 10].find((factor) => factor * magnitude >= max) ?? 10;
  return step * magnitude;
}

export function barScale(kind: BarScaleKind, max: number): BarScale {
  const visible = (value: number, share: number) =>
    value <= 0 ? 0 : Math.min(1, Math.max(MIN_VISIBLE, share));
  if (kind === 'log') {
    const decades = Math.max(1, Math.ceil(Math.log10(Math.max(1, max))));
    return {
      kind,
      ticks: Array.from({ length: decades + 1 }, (_, index) => 10 ** index),
      position: (value) => visible(value, Math.log10(Math.max(1, value)) / decades),
    };
  }
  const top = niceMax(max);
  return {
    kind,
    ticks: [0, 0.25, 0.5, 0.75, 1].map((share) => top * share),
    position: (value) => visible(value, value / top),
  };
}
