import { useLoaderData } from 'react-router';
import type { LegalDocument } from '../../features/legal/legal-document';
import { LegalDocumentPage } from '../../features/legal/legal-document-page';

/** The loader of every legal route (routes.tsx): the version its route table entry names. */
export { loadLegalDocument as loadDocument } from '../../features/legal/load-legal-document';

/** Every legal route: the document version its route table entry names (loaded by routes.tsx). */
export function Component() {
  return <LegalDocumentPage document={useLoaderData<LegalDocument>()} />;
}
