// Measures the ways to draw a 1200×630 preview card that install from the npm registry alone
// (docs/decisions/0019-share-pictures.md), on the same card: a 900×900 photo cut square, a
// two-weight title in Chinese, price, owner.
//   node scripts/measure-picture-engines.mjs [-- --runs 40]
// A. satori (layout, text as paths) + @resvg/resvg-js for everything, photo embedded in the SVG
// B. satori + resvg for the texts only, photo and JPEG by sharp
// C. satori + sharp (librsvg) for the texts, photo and JPEG by sharp      <- what pictures/ does
// D. sharp alone: Pango lays the text out with fontconfig; it cannot take the registry's font
//    (slices in WOFF2), so it is timed with Debian's WenQuanYi Micro Hei, a font of the machine.
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import satori from 'satori';
import sharp from 'sharp';

const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
const fontDir = dirname(require.resolve('@fontsource/noto-sans-sc/package.json'));
const runsFlag = process.argv.indexOf('--runs');
const runs = runsFlag > 0 ? Number(process.argv[runsFlag + 1]) : 40;
const MACHINE_FONT = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';

function slices(weight) {
  const css = readFileSync(join(fontDir, `${weight}.css`), 'utf8');
  return css
    .split('@font-face')
    .slice(1)
    .map((block) => ({
      file: /files\/([^)]+)\.woff2/.exec(block)[1],
      ranges: /unicode-range:\s*([^;]+);/
        .exec(block)[1]
        .split(',')
        .map((part) => {
          const [from, to] = part.trim().slice(2).split('-');
          return [parseInt(from, 16), parseInt(to ?? from, 16)];
        }),
    }));
}
const byWeight = { 400: slices(400), 700: slices(700) };
const buffers = new Map();
function fontsFor(text) {
  const used = new Set();
  for (const character of text) {
    const code = character.codePointAt(0);
    if (code === 32) continue;
    const index = byWeight[400].findLastIndex((s) =>
      s.ranges.some(([a, b]) => code >= a && code <= b),
    );
    if (index >= 0) used.add(index);
  }
  const fonts = [];
  for (const weight of [400, 700])
    for (const index of used) {
      const file = byWeight[weight][index].file;
      if (!buffers.has(file))
        buffers.set(file, readFileSync(join(fontDir, 'files', `${file}.woff2`)));
      fonts.push({ name: `s${index}`, data: buffers.get(file), weight, style: 'normal' });
    }
  return { fonts, family: [...used].map((index) => `s${index}`).join(', ') };
}

const name = '五条悟 涩谷事变 闪光吧唧 58mm 咒术回战 第二季 限定';
const price = '¥35.00 · 出';
const owner = '谷主 芋圆不加冰';
const { fonts, family } = fontsFor(name + price + owner);
const photo = await sharp({
  create: { width: 900, height: 900, channels: 3, background: '#6a5acd' },
})
  .composite([
    {
      input: Buffer.from(
        '<svg width="900" height="900"><circle cx="450" cy="450" r="300" fill="#00d2ff"/></svg>',
      ),
    },
  ])
  .webp()
  .toBuffer();

const div = (style, children) => ({ type: 'div', key: null, props: { style, children } });
function tree(photoUrl) {
  return div(
    { display: 'flex', position: 'relative', width: 1200, height: 630, fontFamily: family },
    [
      photoUrl
        ? {
            type: 'img',
            key: null,
            props: {
              src: photoUrl,
              width: 630,
              height: 630,
              style: { position: 'absolute', left: 0, top: 0 },
            },
          }
        : div({ display: 'flex' }, []),
      div(
        {
          position: 'absolute',
          left: 678,
          top: 48,
          width: 474,
          height: 534,
          display: 'flex',
          flexDirection: 'column',
          background: '#fff',
        },
        [
          div({ display: 'block', lineClamp: 3, fontSize: 48, fontWeight: 700 }, name),
          div(
            { display: 'block', fontSize: 40, fontWeight: 700, color: '#d6245a', marginTop: 20 },
            price,
          ),
          div({ display: 'block', fontSize: 28, color: '#5c5a6b', marginTop: 'auto' }, owner),
        ],
      ),
    ],
  );
}
const base = () => sharp({ create: { width: 1200, height: 630, channels: 3, background: '#fff' } });
const cover = () => sharp(photo).resize(630, 630, { fit: 'cover' }).toBuffer();

const engines = {
  'A satori + resvg (all)': async () => {
    const jpeg = await sharp(photo).resize(630, 630, { fit: 'cover' }).jpeg().toBuffer();
    const svg = await satori(tree(`data:image/jpeg;base64,${jpeg.toString('base64')}`), {
      width: 1200,
      height: 630,
      fonts,
    });
    const { pixels, width, height } = new Resvg(svg).render();
    return sharp(pixels, { raw: { width, height, channels: 4 } })
      .flatten({ background: '#fff' })
      .jpeg({ quality: 84 })
      .toBuffer();
  },
  'B satori + resvg (texts) + sharp': async () => {
    const [photoLayer, svg] = await Promise.all([
      cover(),
      satori(tree(), { width: 1200, height: 630, fonts }),
    ]);
    const { pixels, width, height } = new Resvg(svg).render();
    const texts = await sharp(pixels, { raw: { width, height, channels: 4 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    return base()
      .composite([{ input: photoLayer }, { input: texts }])
      .jpeg({ quality: 84 })
      .toBuffer();
  },
  'C satori + sharp (librsvg)': async () => {
    const [photoLayer, svg] = await Promise.all([
      cover(),
      satori(tree(), { width: 1200, height: 630, fonts }),
    ]);
    return base()
      .composite([{ input: photoLayer }, { input: Buffer.from(svg) }])
      .jpeg({ quality: 84 })
      .toBuffer();
  },
  ...(existsSync(MACHINE_FONT)
    ? {
        'D sharp alone (machine font)': async () => {
          const text = (markup, size, width) =>
            sharp({
              text: {
                text: markup,
                font: `WenQuanYi Micro Hei ${size}`,
                fontfile: MACHINE_FONT,
                width,
                rgba: true,
                dpi: 72,
              },
            })
              .png()
              .toBuffer();
          const [photoLayer, title, priceLayer, ownerLayer] = await Promise.all([
            cover(),
            text(`<b>${name}</b>`, 48, 474),
            text(`<span foreground="#d6245a"><b>${price}</b></span>`, 40, 474),
            text(`<span foreground="#5c5a6b">${owner}</span>`, 28, 474),
          ]);
          return base()
            .composite([
              { input: photoLayer },
              { input: title, left: 678, top: 48 },
              { input: priceLayer, left: 678, top: 260 },
              { input: ownerLayer, left: 678, top: 540 },
            ])
            .jpeg({ quality: 84 })
            .toBuffer();
        },
      }
    : {}),
};

const times = Object.fromEntries(Object.keys(engines).map((key) => [key, []]));
const first = {};
for (const [key, draw] of Object.entries(engines)) {
  const started = performance.now();
  const bytes = await draw();
  first[key] = { ms: performance.now() - started, bytes: bytes.length };
}
// Interleaved, so a busy moment of the machine costs every engine alike.
for (let run = 0; run < runs; run++)
  for (const [key, draw] of Object.entries(engines)) {
    const started = performance.now();
    await draw();
    times[key].push(performance.now() - started);
  }
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
console.log(`${runs} runs each, interleaved; milliseconds per card`);
for (const [key, list] of Object.entries(times)) {
  list.sort((a, b) => a - b);
  console.log(
    `${key.padEnd(32)} first ${first[key].ms.toFixed(0).padStart(5)}  p50 ${at(list, 0.5).toFixed(1).padStart(6)}  p90 ${at(list, 0.9).toFixed(1).padStart(6)}  ${(first[key].bytes / 1000).toFixed(0)} kB`,
  );
}
