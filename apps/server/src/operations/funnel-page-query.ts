import { z } from 'zod';
import { funnelDaySchema } from '@guquan/contract/funnel';
import { SHARE_CHANNELS, type ShareChannel } from '@guquan/contract/funnel-events';
import { addDays, daySpan, funnelDayOf } from '../funnel/funnel-days.ts';
import type { FunnelScope } from '../funnel/funnel-repository.ts';

/**
 * The operators' page's query (`/funnel?from=&to=&channel=&scale=`), as its GET form sends it:
 * empty fields mean "the default" (the last 30 days, every channel, a logarithmic scale).
 */

/** Days the page shows when the form leaves the range empty. */
export const DEFAULT_PAGE_DAYS = 30;
/**
 * The longest range at once: twice this (the range and the period before it, compared) stays
 * within the 400 days kept (FUNNEL_RETENTION_DAYS).
 */
export const MAX_PAGE_DAYS = 180;

export const BAR_SCALES = ['log', 'linear'] as const;
export type BarScaleKind = (typeof BAR_SCALES)[number];

/** What went wrong, as the page says it in its language (operators-texts.ts). */
export type QueryProblem = 'from' | 'to' | 'reversed' | 'too_long' | 'channel' | 'scale';

const blankIsAbsent = (value: unknown) => (value === '' ? undefined : value);

const pageQuerySchema = z.object({
  from: z.preprocess(blankIsAbsent, funnelDaySchema.optional()),
  to: z.preprocess(blankIsAbsent, funnelDaySchema.optional()),
  channel: z.preprocess(blankIsAbsent, z.enum(['all', ...SHARE_CHANNELS]).optional()),
  scale: z.preprocess(blankIsAbsent, z.enum(BAR_SCALES).optional()),
});

/** What the form holds: the query's own texts, so a refused query is shown back as typed. */
export interface FormValues {
  from: string;
  to: string;
  channel: string;
  scale: string;
}

export interface PageQuery {
  scope: FunnelScope;
  scale: BarScaleKind;
}

export type PageQueryResult =
  | { ok: true; query: PageQuery; form: FormValues }
  | { ok: false; problems: QueryProblem[]; form: FormValues };

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The page's query read and checked; `now` gives today (China time) for an empty range. */
export function readPageQuery(raw: unknown, now: Date): PageQueryResult {
  const fields = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const typed: FormValues = {
    from: text(fields.from),
    to: text(fields.to),
    channel: text(fields.channel),
    scale: text(fields.scale),
  };
  const parsed = pageQuerySchema.safeParse(fields);
  if (!parsed.success) {
    const problems = [
      ...new Set(
        parsed.error.issues.map((issue) => String(issue.path[0] ?? 'from') as QueryProblem),
      ),
    ];
    return { ok: false, problems, form: typed };
  }
  const { from: askedFrom, to: askedTo, channel, scale = 'log' } = parsed.data;
  const to = askedTo ?? funnelDayOf(now);
  const from = askedFrom ?? addDays(to, -(DEFAULT_PAGE_DAYS - 1));
  const problems: QueryProblem[] = [];
  if (from > to) problems.push('reversed');
  else if (daySpan(from, to) > MAX_PAGE_DAYS) problems.push('too_long');
  const form: FormValues = { from, to, channel: channel ?? 'all', scale };
  if (problems.length > 0)
    return { ok: false, problems, form: { ...form, from: typed.from || from, to: typed.to || to } };
  const only: ShareChannel | undefined = channel === 'all' ? undefined : channel;
  return { ok: true, query: { scope: { from, to, channel: only }, scale }, form };
}
