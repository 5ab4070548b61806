import { useLoaderData } from 'react-router';
import type { ShareKind } from '@guquan/contract/share-paths';
import { SharePage } from './share-page';
import { ALL_SHARE_PARTS, loadedShareView, loadSharePart, serverPartOf } from './share-parts';
import { prepareShareTexts } from '../texts/share-texts';
import type { SharePart, ShareLoaderData } from '../share-types';

/**
 * The share pages are one module on purpose: their routes share one chunk (and one stylesheet),
 * so a page loads fewer files. What only some pages show (each kind's view, the failure states)
 * are parts of their own (share-parts.tsx).
 */

/** The share page of the current route: its loader's data names the kind. */
export function ShareRoutePage() {
  const { kind } = useLoaderData<ShareLoaderData<ShareKind>>();
  return <SharePage kind={kind}>{(item) => loadedShareView(kind)(item)}</SharePage>;
}

/**
 * What a share page needs before it renders (its route's `prepare`): the texts of its language
 * and, before hydrating the server's page, the part that page shows (`serverData`, the route's
 * loader data the server sent); on the server, which renders every page, all of them. (The
 * skeleton, whose code comes later, is never drawn by the server: it has the item.)
 */
export async function prepareSharePages(kind: ShareKind, serverData: unknown): Promise<void> {
  const onServer = typeof document === 'undefined';
  const serverPart = serverPartOf(kind, serverData);
  const parts: readonly SharePart[] = onServer ? ALL_SHARE_PARTS : serverPart ? [serverPart] : [];
  await Promise.all([prepareShareTexts(), ...parts.map((part) => loadSharePart(part, true))]);
}

export { shareLoader } from './share-loader';
export { shareShouldRevalidate } from './share-revalidate';
