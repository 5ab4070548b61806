// content/legal/**/*.md, as build/legal-markdown-plugin.ts turns them into modules.
declare module '*.md' {
  import type { LegalDocument } from './legal-document';

  export const legalDocument: LegalDocument;
}
