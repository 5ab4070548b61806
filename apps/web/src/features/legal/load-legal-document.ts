import type { LegalDocumentRef } from '../../config/route-table';
import { loadWithRecovery } from '../../lib/chunks/page-load-recovery';
import type { LegalDocument } from './legal-document';

// One chunk per document version, fetched by the route that shows it.
const documentModules = import.meta.glob<{ legalDocument: LegalDocument }>('@content/legal/*/*.md');

function moduleOf({ document, version }: LegalDocumentRef) {
  const suffix = `/legal/${document}/${version}.md`;
  const key = Object.keys(documentModules).find((path) => path.endsWith(suffix));
  return key ? documentModules[key] : undefined;
}

export function hasLegalDocument(ref: LegalDocumentRef): boolean {
  return moduleOf(ref) !== undefined;
}

/** The route loader of every legal page. */
export async function loadLegalDocument(ref: LegalDocumentRef): Promise<LegalDocument> {
  const load = moduleOf(ref);
  if (!load) throw new Error(`No legal document ${ref.document} ${ref.version}`);
  return (await loadWithRecovery(load)).legalDocument;
}
