import { SHARE_CHANNELS } from '@guquan/contract/funnel-events';
import type { Language } from '@guquan/contract/language';
import { addDays } from '../funnel/funnel-days.ts';
import { escapeHtml } from '../http/html-escape.ts';
import { BAR_SCALES, type FormValues, type QueryProblem } from './funnel-page-query.ts';
import type { OperatorsTexts } from './operators-texts.ts';

/**
 * The operators' page's form: a GET form back to the page (no script), the range as two date
 * fields, the channel and the scale as lists, quick links for the last 7, 30 and 90 days; and
 * what was wrong with the last query, if anything, above it.
 */
export const OPERATORS_PAGE_PATH = '/funnel';

/** The page's address for a query (empty values left out; `lang` kept). */
export function pageHref(values: Partial<FormValues>, language: Language): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) if (value) query.set(name, value);
  query.set('lang', language);
  return `${OPERATORS_PAGE_PATH}?${query.toString()}`;
}

function options(
  values: readonly string[],
  chosen: string,
  label: (value: string) => string,
): string {
  return values
    .map(
      (value) =>
        `<option value="${escapeHtml(value)}"${value === chosen ? ' selected' : ''}>${escapeHtml(label(value))}</option>`,
    )
    .join('');
}

export interface FunnelFormOptions {
  form: FormValues;
  problems: readonly QueryProblem[];
  today: string;
  language: Language;
  text: OperatorsTexts;
}

export function funnelForm({ form, problems, today, language, text }: FunnelFormOptions): string {
  const t = text.form;
  const errors =
    problems.length === 0
      ? ''
      : `<div class="errors" role="alert" id="form-errors"><h2>${escapeHtml(text.errorHeading)}</h2><ul>${problems
          .map((problem) => `<li>${escapeHtml(text.errors[problem])}</li>`)
          .join('')}</ul></div>`;
  const fieldProblems = { from: ['from', 'reversed', 'too_long'], to: ['to', 'reversed'] } as const;
  const invalid = (field: 'from' | 'to') =>
    fieldProblems[field].some((problem) => problems.includes(problem))
      ? ' aria-invalid="true" aria-describedby="form-errors"'
      : '';
  const channelLabel = (value: string) =>
    value === 'all' ? t.allChannels : ((text.channels as Record<string, string>)[value] ?? value);
  // A label beside (not around) its control: the control's name is the label's text alone.
  const field = (name: string, label: string, control: string) =>
    `<div class="field"><label for="form-${name}">${escapeHtml(label)}</label>${control}</div>`;
  const quick = [7, 30, 90]
    .map((days) => {
      const href = pageHref(
        { from: addDays(today, -(days - 1)), to: today, channel: form.channel, scale: form.scale },
        language,
      );
      return `<a href="${escapeHtml(href)}">${escapeHtml(t.lastDays(days))}</a>`;
    })
    .join(' ');
  return (
    errors +
    `<form class="card wide range-form" method="get" action="${OPERATORS_PAGE_PATH}">` +
    `<fieldset><legend>${escapeHtml(t.legend)}</legend>` +
    `<input type="hidden" name="lang" value="${language}">` +
    field(
      'from',
      t.from,
      `<input id="form-from" type="date" name="from" value="${escapeHtml(form.from)}" max="${today}"${invalid('from')}>`,
    ) +
    field(
      'to',
      t.to,
      `<input id="form-to" type="date" name="to" value="${escapeHtml(form.to)}" max="${today}"${invalid('to')}>`,
    ) +
    field(
      'channel',
      t.channel,
      `<select id="form-channel" name="channel">${options(['all', ...SHARE_CHANNELS], form.channel || 'all', channelLabel)}</select>`,
    ) +
    field(
      'scale',
      t.scale,
      `<select id="form-scale" name="scale">${options(BAR_SCALES, form.scale || 'log', (value) => (value === 'log' ? t.log : t.linear))}</select>`,
    ) +
    `<button type="submit">${escapeHtml(t.show)}</button>` +
    `</fieldset><p class="quick">${escapeHtml(t.quick)} ${quick}</p></form>`
  );
}
