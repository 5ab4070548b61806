// Saves the preview card and the poster of a goods, a cabinet and a note (and the neutral card) in
// both languages, as a server makes them, into bench-results/pictures/, to look at:
//   npm run build && node benchmarks/picture-samples.mjs [--port 26500]
// Starts the built server on a fresh demo database (port from --port or PORT, default 8080).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadDemoIds, startBuiltServer } from './bench-support.mjs';

const portFlag = process.argv.indexOf('--port');
const port = Number(portFlag > 0 ? process.argv[portFlag + 1] : (process.env.PORT ?? 8080));
const origin = `http://127.0.0.1:${port}`;
const base = `${origin}/anime_merch_web`;
const out = 'bench-results/pictures';

const ids = await loadDemoIds();
const items = [
  ['goods', 'goodsShare', 'goods', ids.goods.gallery],
  ['cabinet', 'cabinetShare', 'cabinets', ids.cabinets.main],
  ['note', 'notesShare', 'notes', ids.notes.rich],
  ['note-text', 'notesShare', 'notes', ids.notes.noImages],
  ['neutral', 'goodsShare', 'goods', ids.goods.private],
];

const dataDir = await mkdtemp(join(tmpdir(), 'guquan-pictures-'));
const server = await startBuiltServer({ port, dataDir, output: 'ignore' });
try {
  await mkdir(out, { recursive: true });
  for (const [name, page, api, id] of items) {
    for (const lang of ['zh-CN', 'en']) {
      const html = await (await fetch(`${base}/AppShare/${page}?id=${id}&lang=${lang}`)).text();
      const card = /<meta property="og:image" content="([^"]+)">/.exec(html)?.[1];
      if (!card) throw new Error(`No og:image on the ${name} page`);
      const saved = [];
      const cardFile = join(out, `${name}-card-${lang}.jpg`);
      await writeFile(cardFile, Buffer.from(await (await fetch(card)).arrayBuffer()));
      saved.push(cardFile);
      if (name !== 'neutral') {
        const poster = await (
          await fetch(`${base}/api/v1/${api}/${id}/poster?lang=${lang}`)
        ).json();
        const posterFile = join(out, `${name}-poster-${lang}.jpg`);
        await writeFile(
          posterFile,
          Buffer.from(await (await fetch(`${origin}${poster.url}`)).arrayBuffer()),
        );
        saved.push(posterFile);
      }
      console.log(saved.join('  '));
    }
  }
} finally {
  server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
