import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Plugin } from 'vite';
import { renderLegalMarkdown } from './legal-markdown.ts';

/**
 * Lets the app import content/legal/<document>/<version>.md: the module it gets exports
 * `legalDocument` (see src/features/legal/legal-document.ts), made at build time.
 */
export function legalMarkdownPlugin(contentDir: string): Plugin {
  const siteFile = join(contentDir, 'site.json');
  const legalDir = join(contentDir, 'legal');
  return {
    name: 'guquan:legal-markdown',
    async transform(source, id) {
      const file = id.split('?')[0] ?? id;
      if (!file.endsWith('.md') || !file.startsWith(legalDir)) return null;
      this.addWatchFile(siteFile);
      const facts: unknown = JSON.parse(await readFile(siteFile, 'utf8'));
      const legalDocument = renderLegalMarkdown(source, facts, {
        document: basename(dirname(file)),
        version: basename(file, '.md'),
        file,
      });
      return { code: `export const legalDocument = ${JSON.stringify(legalDocument)};`, map: null };
    },
  };
}
