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
    `<label>${escapeHtml(t.from)} <input type="date" name="from" value="${escapeHtml(form.from)}" max="${today}"${invalid('from')}></label>` +
    `<label>${escapeHtml(t.to)} <input type="date" name="to" value="${escapeHtml(form.to)}" max="${today}"${invalid('to')}></label>` +
    `<label>${escapeHtml(t.channel)} <select name="channel">${options(['all', ...SHARE_CHANNELS], form.channel || 'all', channelLabel)}</select></label>` +
    `<label>${escapeHtml(t.scale)} <select name="scale">${options(BAR_SCALES, form.scale || 'log', (value) => (value === 'log' ? t.log : t.linear))}</select></label>` +
    `<button type="submit">${escapeHtml(t.show)}</button>` +
    `</fieldset><p class="quick">${escapeHtml(t.quick)} ${quick}</p></form>`
  );
}
