// Requests per second and latency of the server itself, one process, one run: /health (the
// floor of what a request costs), the three share pages, the privacy policy and the website, each
// as a ratio of /health; then the share pages again at 64 connections (p99); then the preview
// cards and posters (scripts/bench-pictures.mjs).
//
//   npm run build && npm run bench:server [-- --duration 10] [-- --connections 16]
//   npm run bench:server -- --smoke    a few seconds: every page answers, nothing is measured
//
// Options: --root <repo> serves another checkout's build (to compare with an older commit);
// --compressed asks for brotli as browsers do.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { once } from 'node:events';
import { benchPictures } from './bench-pictures.mjs';
import { loadDemoIds, startBuiltServer } from './bench-support.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'share-connections': { type: 'string', default: '64' },
    root: { type: 'string', default: '.' },
    compressed: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
  },
});
const smoke = values.smoke;
const duration = smoke ? 1 : Number(values.duration);
const connections = smoke ? 2 : Number(values.connections);
const shareConnections = smoke ? 4 : Number(values['share-connections']);
const root = resolve(values.root);

const DEMO_IDS = await loadDemoIds();

const HEALTH = '/anime_merch_web/api/v1/health';
/** [name, path, is a share page]. Pages as a share link opens them: no ?lang=, Chinese. */
const TARGETS = [
  ['/health', HEALTH, false],
  ['goods share', `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`, true],
  ['cabinet share', `/anime_merch_web/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.main}`, true],
  ['note share', `/anime_merch_web/AppShare/notesShare?id=${DEMO_IDS.notes.rich}`, true],
  ['privacy policy', '/anime_merch_web/agreement/yiSi/YiSiAgreement', false],
  ['website', '/anime_merch_web/website', false],
];

/** A port nobody listens on now (the smoke run must not collide with another test's server). */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolvePort(port));
    });
  });
}

const port = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = await mkdtemp(join(tmpdir(), 'guquan-bench-server-'));

/** One load run against one path; fails on any answer that is not 2xx. */
async function load(path, clients, seconds) {
  const result = await autocannon({
    url: `${origin}${path}`,
    connections: clients,
    duration: seconds,
    // Uncompressed unless --compressed: autocannon's HTTP parser stalls on answers compressed as
    // a stream (as pages were before they were cached), which would make older builds
    // unmeasurable. --compressed asks as browsers do (br), for builds that compress pages once.
    headers: {
      'accept-language': 'zh-CN,zh;q=0.9',
      ...(values.compressed ? { 'accept-encoding': 'gzip, deflate, br' } : {}),
    },
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${path}: ${failed} of ${result.requests.total} requests failed`);
  return { requests: result.requests.total, seconds: result.duration, p99: result.latency.p99 };
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

/**
 * Measures every run in short slices, round after round: whatever else the machine does meanwhile
 * weighs on every path alike, so the ratios to /health hold even when the totals drift.
 */
async function measureInRounds(runs) {
  const slice = smoke ? duration : 2;
  const rounds = Math.max(1, Math.round(duration / slice));
  const totals = runs.map(() => ({ requests: 0, seconds: 0, p99s: [] }));
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, run] of runs.entries()) {
      const result = await load(run.path, run.clients, slice);
      const total = totals[index];
      total.requests += result.requests;
      total.seconds += result.seconds;
      total.p99s.push(result.p99);
    }
  }
  // No request finished within a slice: its latency is beyond the slice, not zero.
  return totals.map((total) => ({
    rate: total.requests / total.seconds,
    p99: total.requests === 0 ? `> ${slice * 1000}` : median(total.p99s),
  }));
}

// Behind a proxy of its own: the pictures' bench is many clients (X-Forwarded-For).
const server = await startBuiltServer({ root, port, dataDir, env: { TRUST_PROXY: '127.0.0.1' } });
try {
  // Warm up: the first request of each page renders it and resizes its images.
  for (const [, path] of TARGETS) {
    const html = await (await fetch(`${origin}${path}`)).text();
    const images = [...html.matchAll(/(?:imagesrcset|srcset)="([^"]+)"/g)].flatMap(([, list]) =>
      list.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]),
    );
    await Promise.all(images.map((url) => fetch(`${origin}${url.replaceAll('&amp;', '&')}`)));
    if (!smoke) await load(path, connections, 1);
  }
  const narrow = await measureInRounds(TARGETS.map(([, path]) => ({ path, clients: connections })));
  const shares = TARGETS.filter(([, , share]) => share);
  const wide = await measureInRounds(
    shares.map(([, path]) => ({ path, clients: shareConnections })),
  );
  const rows = TARGETS.map(([name], index) => ({
    name,
    ...narrow[index],
    wideP99: wide[shares.findIndex(([shareName]) => shareName === name)]?.p99,
  }));
  const health = rows[0]?.rate ?? 1;
  const lines = [
    `| path | requests/s (${connections} conn.) | of /health | p99 (${connections} conn.) | p99 (${shareConnections} conn.) |`,
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (row) =>
        `| ${row.name} | ${Math.round(row.rate)} | ${Math.round((row.rate / health) * 100)}% | ${row.p99} ms | ${row.wideP99 === undefined ? '—' : `${row.wideP99} ms`} |`,
    ),
  ];
  console.log(smoke ? `Smoke run (${duration} s each, nothing measured):` : `${duration} s each:`);
  console.log(lines.join('\n'));
  const pictures = await benchPictures({
    origin,
    pid: server.pid,
    ids: DEMO_IDS,
    smoke,
    measureInRounds,
    connections,
  });
  console.log(pictures.join('\n'));
} finally {
  const exited = once(server, 'exit');
  const stopping = performance.now();
  server.kill();
  await exited;
  console.error(`server stopped in ${Math.round(performance.now() - stopping)} ms`);
  await rm(dataDir, { recursive: true, force: true });
}
