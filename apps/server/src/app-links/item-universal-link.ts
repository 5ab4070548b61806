import { universalLink, type AppTarget } from '@guquan/contract/app-link-paths';
import type { AppLinksConfig } from '../config/app-links-config.ts';

/**
 * An item's Universal Link (iOS) and App Link (Android) on this server's link domain: the one
 * place the server builds it (share texts, posters' QR codes, anything else that links into the
 * app). `<LINK_ORIGIN>/goods/<id>?image=2`, `/cabinet/<id>`, `/note/<id>`, or `/` for the app.
 */
export function itemUniversalLink(
  appLinks: Pick<AppLinksConfig, 'origin'>,
  target: AppTarget,
): string {
  return universalLink(appLinks.origin, target);
}
