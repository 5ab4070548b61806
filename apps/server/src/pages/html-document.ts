import {
  APP_HTML_MARKER,
  HEAD_MARKER,
  SCRIPTS_MARKER,
  LANG_MARKER,
  TITLE_MARKER,
} from '@guquan/contract/html-template';
import { escapeHtml } from '../http/html-escape.ts';

export interface DocumentParts {
  language: string;
  title: string;
  head: string;
  appHtml: string;
  /** What starts the app, at the end of <body>. */
  scripts: string;
}

const MARKERS = new RegExp(
  [LANG_MARKER, TITLE_MARKER, HEAD_MARKER, APP_HTML_MARKER, SCRIPTS_MARKER].join('|'),
  'g',
);

/**
 * Fills the web build's index.html in one pass over the template only, so nothing inserted (the
 * page's markup may carry users' text) is ever read again as a marker.
 */
export function fillTemplate(template: string, parts: DocumentParts): string {
  const values: Record<string, string> = {
    [LANG_MARKER]: escapeHtml(parts.language),
    [TITLE_MARKER]: escapeHtml(parts.title),
    [HEAD_MARKER]: parts.head,
    [APP_HTML_MARKER]: parts.appHtml,
    [SCRIPTS_MARKER]: parts.scripts,
  };
  return template.replace(MARKERS, (marker) => values[marker] ?? marker);
}
