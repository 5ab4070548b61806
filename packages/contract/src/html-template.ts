/**
 * The markers in the web app's index.html that the server fills per request. The build writes the
 * template with them; the server replaces each one (see apps/server/src/pages/html-document.ts).
 */
export const LANG_MARKER = '__APP_LANG__';
export const TITLE_MARKER = '__APP_TITLE__';
export const HEAD_MARKER = '<!--app-head-->';
export const APP_HTML_MARKER = '<!--app-html-->';
export const SCRIPTS_MARKER = '<!--app-scripts-->';
