// The pictures' part of `npm run bench:server` (docs/decisions/0019-share-pictures.md): how long a
// preview card and a poster take to make cold, how many requests a second a made one serves (as a
// share of /health), and the server's memory while 64 different pictures are asked for at once.
// The server runs with TRUST_PROXY=127.0.0.1 so each request can be a client of its own
// (X-Forwarded-For): the per-client limit on new drawings is not what is measured here.
import { readFile } from 'node:fs/promises';
import { cpuMs } from './bench-support.mjs';

const BASE = '/anime_merch_web';

/** The server process's resident memory (Linux), in MB. */
async function rssMb(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+)/.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : Number.NaN;
}

let clientNumber = 0;
/** A new client address for each request: 10.x.y.z. */
function nextClient() {
  clientNumber += 1;
  return `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
}

async function fetchPicture(origin, path) {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, {
    headers: { 'x-forwarded-for': nextClient() },
  });
  const bytes = (await response.arrayBuffer()).byteLength;
  if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
  return { ms: performance.now() - started, bytes };
}

/** The card (og:image) of a share page and its poster's address, as a browser finds them. */
async function addressesOf(origin, kind, id, language) {
  const page = { goods: 'goodsShare', cabinet: 'cabinetShare', note: 'notesShare' }[kind];
  const api = { goods: 'goods', cabinet: 'cabinets', note: 'notes' }[kind];
  const html = await (
    await fetch(`${origin}${BASE}/AppShare/${page}?id=${id}&lang=${language}`)
  ).text();
  const card =
    /<meta property="og:image" content="[^"]*?(\/anime_merch_web\/pictures\/[^"]+)">/.exec(
      html,
    )?.[1];
  const poster = await (
    await fetch(`${origin}${BASE}/api/v1/${api}/${id}/poster?lang=${language}`)
  ).json();
  if (!card || !poster.url) throw new Error(`No pictures for ${kind} ${id}`);
  return { card, poster: poster.url };
}

const quantile = (numbers, q) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
};

/**
 * Runs the measurements and returns Markdown lines. `measureInRounds` is bench-server's (paths
 * measured in alternating slices); `ids` the demo ids.
 */
export async function benchPictures({ origin, pid, ids, smoke, measureInRounds, connections }) {
  // Every public goods of the big cabinet, the cabinet itself and the notes: pictures to make.
  const cabinet = await (
    await fetch(`${origin}${BASE}/api/v1/cabinets/${ids.cabinets.main}`)
  ).json();
  const items = [
    ...cabinet.items.map((goods) => ['goods', goods.id]),
    ['cabinet', ids.cabinets.main],
    ['note', ids.notes.rich],
    ['note', ids.notes.hostile],
    ['note', ids.notes.noImages],
  ];
  const pictures = [];
  for (const language of ['zh-CN', 'en'])
    for (const [kind, id] of items)
      pictures.push({ kind, id, language, ...(await addressesOf(origin, kind, id, language)) });

  // The first drawing after a start loads the layout engine and the font's first slices.
  const first = await fetchPicture(origin, pictures[0].card);
  // 64 different pictures nobody asked for before, asked for at once.
  const burstItems = smoke ? 4 : 32;
  const burst = pictures
    .slice(1, 1 + burstItems)
    .flatMap((picture) => [picture.card, picture.poster]);
  const before = await rssMb(pid);
  let peak = before;
  const sampler = setInterval(() => {
    void rssMb(pid).then((mb) => {
      if (mb > peak) peak = mb;
    });
  }, 20);
  const burstStarted = performance.now();
  const results = await Promise.allSettled(burst.map((path) => fetchPicture(origin, path)));
  const burstMs = performance.now() - burstStarted;
  clearInterval(sampler);
  const failed = results.filter((result) => result.status === 'rejected');
  if (failed.length > 0)
    throw new Error(`${failed.length} of ${burst.length} pictures failed: ${failed[0].reason}`);

  const sample = smoke ? 2 : 10;
  const cold = { card: [], poster: [] };
  const sizes = { card: [], poster: [] };
  const cpu = { card: 0, poster: 0 };
  // Then one at a time, pictures nobody asked for before, in a server that has drawn (its layout
  // engine and the font's common slices loaded), one kind after the other, so the server's CPU
  // time in between is that kind's drawings: a figure a busy machine inflates far less than the
  // wall-clock time.
  for (const which of ['card', 'poster']) {
    const cpuBefore = await cpuMs(pid);
    for (const picture of pictures.slice(1 + burstItems, 1 + burstItems + sample)) {
      const { ms, bytes } = await fetchPicture(origin, picture[which]);
      cold[which].push(ms);
      sizes[which].push(bytes);
    }
    cpu[which] = ((await cpuMs(pid)) - cpuBefore) / sample;
  }

  const made = pictures[1];
  const [health, card, poster] = await measureInRounds([
    { path: `${BASE}/api/v1/health`, clients: connections },
    { path: made.card, clients: connections },
    { path: made.poster, clients: connections },
  ]);
  const kb = (list) => `${Math.round(quantile(list, 0.5) / 1000)} kB`;
  return [
    `| pictures | cold p50 | cold p90 | server CPU per cold one | size p50 | made: requests/s (${connections} conn.) | of /health | p99 |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    `| card 1200×630 | ${Math.round(quantile(cold.card, 0.5))} ms | ${Math.round(quantile(cold.card, 0.9))} ms | ${Math.round(cpu.card)} ms | ${kb(sizes.card)} | ${Math.round(card.rate)} | ${Math.round((card.rate / health.rate) * 100)}% | ${card.p99} ms |`,
    `| poster 1080×1440 | ${Math.round(quantile(cold.poster, 0.5))} ms | ${Math.round(quantile(cold.poster, 0.9))} ms | ${Math.round(cpu.poster)} ms | ${kb(sizes.poster)} | ${Math.round(poster.rate)} | ${Math.round((poster.rate / health.rate) * 100)}% | ${poster.p99} ms |`,
    '',
    `First drawing after the start: ${Math.round(first.ms)} ms (the layout engine and the font's first slices load). ` +
      `${burst.length} different pictures asked for at once: all made in ${(burstMs / 1000).toFixed(1)} s, ` +
      `server memory ${Math.round(before)} MB before, ${Math.round(peak)} MB at most (+${Math.round(peak - before)} MB).`,
  ];
}
