/** A legal document version as the build makes it from content/legal/<document>/<version>.md. */
export interface LegalDocument {
  /** The document's folder name, e.g. `privacy`. */
  document: string;
  /** The version, its date: YYYY-MM-DD. */
  version: string;
  title: string;
  effective: string;
  updated: string;
  summary: string;
  /** The text as HTML, rendered at build time from our own Markdown (raw HTML disabled). */
  html: string;
  /** The chapters (level-2 headings), for the table of contents. */
  toc: readonly TocEntry[];
}

export interface TocEntry {
  id: string;
  text: string;
}
