// Draws the site's icons from the mark's SVG (apps/web/src/assets/favicon.svg): a 64 px favicon and
// the 180 px icon iOS puts on the home screen (square: iOS rounds the corners itself). PNG, not the SVG itself: a browser that fetches an
// SVG icon builds a whole SVG document for it on the page's main thread while the page loads.
//
//   node scripts/make-icons.mjs   (after changing the SVG; the PNGs are committed)
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';

const assets = new URL('../apps/web/src/assets/', import.meta.url);
const svg = await readFile(new URL('favicon.svg', assets), 'utf8');
const square = svg.replace(/ rx="[\d.]+"/, '');

for (const [file, size, source] of [
  ['favicon-64.png', 64, svg],
  ['apple-touch-icon.png', 180, square],
]) {
  await sharp(Buffer.from(source), { density: 72 * (size / 64) * 4 })
    .resize(size, size)
    .png({ compressionLevel: 9, palette: true })
    .toFile(new URL(file, assets).pathname);
}
