import type { ShareKind } from '@guquan/contract/share-paths';
import site from '../../../../content/site.json' with { type: 'json' };

/** The app's own path segment of each kind (the app's routes: `goods/<id>`, `cabinet/<id>`, …). */
const APP_SEGMENTS: Readonly<Record<ShareKind, string>> = {
  goods: 'goods',
  cabinet: 'cabinet',
  note: 'note',
};

/**
 * The item's Universal Link, which a poster's QR code holds: a phone with the app opens the item
 * there; without it, the link's host serves the item's share page. The one place the pictures
 * build it (today from content/site.json's `appLinks.universalLinkOrigin`, as the share pages'
 * "open in app" does).
 */
export function itemUniversalLink(kind: ShareKind, id: string): string {
  const origin = site.appLinks.universalLinkOrigin.replace(/\/$/, '');
  return `${origin}/${APP_SEGMENTS[kind]}/${encodeURIComponent(id)}`;
}
