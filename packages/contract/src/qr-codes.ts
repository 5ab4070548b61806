import type { ShareKind } from './share-paths.ts';
import { BASE_PATH } from './site-paths.ts';

/**
 * "Scan to open on your phone": QR codes a desktop browser shows where "open in app" cannot open
 * an app. The server draws each as an SVG image (pictures/qr-code-routes.ts) of a link it builds
 * itself: an item's Universal Link, or the app's (the link domain's root, which leads to the
 * stores without the app). The address names only a kind and an id, never a URL, so it cannot be
 * made to encode anything else. Plain code without zod (the share pages import it).
 */
export const QR_CODES_PATH = `${BASE_PATH}/pictures/qr`;

/** The file name of the app's own QR code (the website's download section). */
export const APP_QR_CODE_FILE = 'app.svg';

/** The QR code of an item's Universal Link: `/anime_merch_web/pictures/qr/goods/<id>.svg`. */
export function shareQrCodePath(kind: ShareKind, id: string): string {
  return `${QR_CODES_PATH}/${kind}/${encodeURIComponent(id)}.svg`;
}

/** The QR code of the app's Universal Link, for "get the app" on a desktop. */
export const APP_QR_CODE_PATH = `${QR_CODES_PATH}/${APP_QR_CODE_FILE}`;

/** The side, in CSS pixels, the pages show a QR code at (big enough for a phone at arm's length). */
export const QR_CODE_DISPLAY_SIZE = 160;
