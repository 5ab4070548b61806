import QRCode from 'qrcode';
import satori from 'satori';
import sharp, { type OverlayOptions } from 'sharp';
import type { PictureContent } from '@guquan/contract/share-pictures';
import type { PictureFonts } from './picture-fonts.ts';
import { layoutOf, pictureText, type Box } from './picture-layouts.ts';

/**
 * Draws a picture (docs/decisions/0019-share-pictures.md): satori lays out the texts and panels
 * and turns the text into paths in the project's font; sharp decodes and crops the photos,
 * renders that SVG (librsvg, off the event loop), lays the photos and the QR code on it and
 * encodes a JPEG, which every link previewer and every WeChat shows. Chosen by measurement against
 * satori + resvg and sharp alone (the decision record gives the figures).
 */

/** The photo files a picture may use: the original of an image, if anybody may see it. */
export type PhotoSource = (imageId: string) => Promise<string | undefined>;

/**
 * JPEG quality: photos and flat colours stay clean, a card stays well under 300 kB. libjpeg-turbo
 * rather than mozjpeg: a few percent larger, several times less CPU for a picture made on demand.
 */
const JPEG_QUALITY = 84;

/** QR codes: error correction M (15 % of the code may be lost), as printed posters use. */
const QR_ERROR_CORRECTION = 'M';
/** The blank margin a QR code needs around it, in modules (the standard's four). */
const QR_QUIET_MODULES = 4;

/**
 * The QR code of `link` as an SVG of black squares on white, each module a whole number of
 * pixels (sharp edges at the size it is drawn), centred in a `size` square. The viewBox lets a
 * page show it at another size (qr-code-routes.ts).
 */
export function qrCodeSvg(link: string, size: number): string {
  const { modules } = QRCode.create(link, { errorCorrectionLevel: QR_ERROR_CORRECTION });
  const count = modules.size;
  const moduleSize = Math.floor(size / (count + 2 * QR_QUIET_MODULES));
  if (moduleSize < 1) throw new Error('The link is too long for its QR code');
  const offset = Math.floor((size - count * moduleSize) / 2);
  const runs: string[] = [];
  for (let row = 0; row < count; row++) {
    let start = -1;
    for (let column = 0; column <= count; column++) {
      const dark = column < count && modules.get(row, column) === 1;
      if (dark && start < 0) start = column;
      if (!dark && start >= 0) {
        const x = offset + start * moduleSize;
        const y = offset + row * moduleSize;
        runs.push(
          `M${x} ${y}h${(column - start) * moduleSize}v${moduleSize}h${-(column - start) * moduleSize}z`,
        );
        start = -1;
      }
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges">` +
    `<rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${runs.join('')}"/></svg>`
  );
}

async function photoLayer(
  source: PhotoSource,
  imageId: string,
  box: Box,
): Promise<OverlayOptions | undefined> {
  const path = await source(imageId);
  if (!path) return undefined;
  // From the original: one decode (JPEG shrinks as it loads), no resized copy to encode first;
  // handed over as raw pixels: encoding the crop (as WebP, the input's format) and decoding it
  // again to composite cost a third of a poster's time, and a lossy generation.
  const { data, info } = await sharp(path)
    .rotate()
    .resize({ width: box.width, height: box.height, fit: 'cover', position: 'attention' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { input: data, raw: info, left: box.left, top: box.top };
}

/** The texts of a picture without the characters the font cannot draw (never boxes). */
function drawableContent(content: PictureContent, fonts: PictureFonts): PictureContent {
  return {
    ...content,
    title: fonts.drawable(content.title),
    subtitle: fonts.drawable(content.subtitle),
    detail: fonts.drawable(content.detail),
    owner: fonts.drawable(content.owner),
  };
}

/** The picture as a JPEG. */
export async function drawPicture(
  content: PictureContent,
  fonts: PictureFonts,
  photos: PhotoSource,
): Promise<Buffer> {
  const drawable = drawableContent(content, fonts);
  const { fonts: slices, family } = fonts.fontsFor(pictureText(drawable));
  const layout = layoutOf(drawable, family);
  const [svg, ...photoLayers] = await Promise.all([
    satori(layout.tree, { width: layout.width, height: layout.height, fonts: slices }),
    ...layout.photos.map(({ imageId, box }) => photoLayer(photos, imageId, box)),
  ]);
  const layers: OverlayOptions[] = photoLayers.filter((layer) => layer !== undefined);
  if (layout.qr && drawable.link) {
    layers.push({
      input: Buffer.from(qrCodeSvg(drawable.link, layout.qr.width)),
      left: layout.qr.left,
      top: layout.qr.top,
    });
  }
  // The drawing is opaque (its root is on the page colour) and nothing of it lies where photos
  // go: it is the base, one full-size compositing pass fewer than laying it on a blank canvas;
  // without its alpha channel (all opaque), which a JPEG drops anyway, a little less to carry.
  return sharp(Buffer.from(svg))
    .removeAlpha()
    .composite(layers)
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
}
