/**
 * Turns a legal document's Markdown (content/legal/<document>/<version>.md) into what the page
 * shows, at build time: no Markdown parser ships to the phone. Company facts are written in the
 * documents as {{placeholders}} and filled from content/site.json here.
 */
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { z } from 'zod';
import type { LegalDocument, TocEntry } from '../src/features/legal/legal-document.ts';

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD');
const frontMatterSchema = z.strictObject({
  title: z.string().min(1),
  version: isoDate,
  effective: isoDate,
  updated: isoDate,
  summary: z.string().min(1),
});

export class LegalMarkdownError extends Error {
  override name = 'LegalMarkdownError';
}

function splitFrontMatter(
  source: string,
  file: string,
): { fields: Record<string, string>; body: string } {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(source);
  if (!match?.[1] || match[2] === undefined)
    throw new LegalMarkdownError(`${file}: no front matter`);
  const fields: Record<string, string> = {};
  for (const line of match[1].split(/\r?\n/)) {
    if (!line.trim()) continue;
    const colon = line.indexOf(':');
    if (colon < 1)
      throw new LegalMarkdownError(`${file}: front matter line "${line}" is not key: value`);
    fields[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { fields, body: match[2] };
}

/** Replaces each {{a.b}} with that fact of site.json; an unknown name fails the build. */
export function fillPlaceholders(text: string, facts: unknown, file: string): string {
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_placeholder, name: string) => {
    let value: unknown = facts;
    for (const key of name.split('.')) {
      value =
        typeof value === 'object' && value !== null
          ? (value as Record<string, unknown>)[key]
          : undefined;
    }
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new LegalMarkdownError(`${file}: {{${name}}} is not a fact in content/site.json`);
    }
    return String(value);
  });
}

/** An id from a heading's text that survives edits elsewhere in the document. */
function slugOf(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
}

function inlineText(token: Token | undefined): string {
  return (token?.children ?? [])
    .map((child) => child.content)
    .join('')
    .trim();
}

function createRenderer(): MarkdownIt {
  // No raw HTML: whatever the Markdown says is escaped, never markup.
  const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const defaultLinkOpen =
    markdown.renderer.rules.link_open ??
    ((tokens, index, options, _env, self) => self.renderToken(tokens, index, options));
  markdown.renderer.rules.link_open = (tokens, index, options, env, self) => {
    const token = tokens[index];
    const href = token?.attrGet('href') ?? '';
    if (token && /^https?:\/\//.test(href)) {
      token.attrSet('rel', 'noopener noreferrer');
      token.attrSet('target', '_blank');
    }
    return defaultLinkOpen(tokens, index, options, env, self);
  };
  // Tables sit in a wrapper that lets them become cards on narrow screens (see CSS); each cell
  // carries its column's name for that.
  markdown.renderer.rules.table_open = () => '<div class="table-wrap"><table>\n';
  markdown.renderer.rules.table_close = () => '</table></div>\n';
  // The header row is for screen readers on narrow screens (each cell then shows its column's
  // name), and shown as a table's header only where the table is wide enough to be one (CSS).
  markdown.renderer.rules.thead_open = () => '<thead class="visually-hidden">\n';
  return markdown;
}

const renderer = createRenderer();

function annotate(tokens: Token[]): TocEntry[] {
  const toc: TocEntry[] = [];
  const used = new Map<string, number>();
  let headers: string[] = [];
  let column = 0;
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open' && (token.tag === 'h2' || token.tag === 'h3')) {
      const text = inlineText(tokens[index + 1]);
      const base = slugOf(text) || 'section';
      const count = (used.get(base) ?? 0) + 1;
      used.set(base, count);
      const id = count === 1 ? base : `${base}-${count}`;
      token.attrSet('id', id);
      if (token.tag === 'h2') toc.push({ id, text });
    } else if (token.type === 'thead_open') {
      headers = [];
    } else if (token.type === 'th_open') {
      headers.push(inlineText(tokens[index + 1]));
    } else if (token.type === 'tr_open') {
      column = 0;
    } else if (token.type === 'td_open') {
      const label = headers[column];
      if (label) token.attrSet('data-label', label);
      column += 1;
    }
  });
  return toc;
}

export function renderLegalMarkdown(
  source: string,
  facts: unknown,
  location: { document: string; version: string; file: string },
): LegalDocument {
  const { fields, body } = splitFrontMatter(source, location.file);
  const parsed = frontMatterSchema.safeParse(fields);
  if (!parsed.success) {
    throw new LegalMarkdownError(
      `${location.file}: front matter: ${z.prettifyError(parsed.error)}`,
    );
  }
  const meta = parsed.data;
  if (meta.version !== location.version) {
    throw new LegalMarkdownError(
      `${location.file}: version ${meta.version} differs from the file name`,
    );
  }
  const tokens = renderer.parse(fillPlaceholders(body, facts, location.file), {});
  const toc = annotate(tokens);
  return {
    document: location.document,
    ...meta,
    title: fillPlaceholders(meta.title, facts, location.file),
    summary: fillPlaceholders(meta.summary, facts, location.file),
    html: renderer.renderer.render(tokens, renderer.options, {}),
    toc,
  };
}

/** The cells of every table of a document's Markdown, header row first (for checks on content). */
export function tablesOf(source: string): string[][][] {
  const body = source.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
  const tables: string[][][] = [];
  let row: string[] = [];
  const tokens = renderer.parse(body, {});
  tokens.forEach((token, index) => {
    if (token.type === 'table_open') tables.push([]);
    else if (token.type === 'tr_open') row = [];
    else if (token.type === 'th_open' || token.type === 'td_open')
      row.push(inlineText(tokens[index + 1]));
    else if (token.type === 'tr_close') tables.at(-1)?.push(row);
  });
  return tables;
}
