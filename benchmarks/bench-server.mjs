// Requests per second and latency of the server itself, in one run. First what the metrics cost,
// three ways: the share pages on four fresh servers of their own, two with metrics on (the
// operators' listener open and scraped every second) and two with them off, round after round;
// the metrics' own share of a fifth server's CPU in a profile; and both settings served by one
// process (bench-metrics-pair.mjs). Then, on one server:
// /health (the floor of what a request costs), the three share pages, the privacy policy and the
// website, each as a ratio of /health; the share pages again at 64 connections (p99); what one-off
// pages cost (server CPU per request, as a ratio of a cached page) and a hot share page's p99 at
// 64 connections while a flood of one-off pages runs at 64 more (target: at most 100 ms); then the
// preview cards and posters (bench-pictures.mjs).
//
//   npm run build && npm run bench:server [-- --duration 10] [-- --connections 16]
//   npm run bench:server -- --smoke    a few seconds: every page answers, nothing is measured
//   npm run bench:server -- --only one-off    the one-off pages and the flood alone
//   npm run bench:server -- --only metrics    what the metrics cost alone
//
// Options: --root <repo> serves another checkout's build (to compare with an older commit);
// --compressed asks for brotli as browsers do.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { once } from 'node:events';
import { measureMetricsInOneProcess } from './bench-metrics-pair.mjs';
import { benchPictures } from './bench-pictures.mjs';
import { cpuMs, freePort, loadDemoIds, startBuiltServer } from './bench-support.mjs';
import { cpuShareOf } from './cpu-profile-share.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'share-connections': { type: 'string', default: '64' },
    root: { type: 'string', default: '.' },
    compressed: { type: 'boolean', default: false },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
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

/** Random base64url characters: ids and paths nobody asked for before. */
const fresh = (length) =>
  randomBytes(Math.ceil((length * 3) / 4) + 3)
    .toString('base64url')
    .slice(0, length);

/**
 * A spelling of `path` the router takes for the same route (it matches without regard to case,
 * decodes percent-encoded characters and ignores a trailing slash): each letter in either case
 * or percent-encoded, maybe a trailing slash.
 */
function pathVariant(path) {
  const spelled = [...path]
    .map((char) => {
      if (!/[a-z]/i.test(char)) return char;
      const roll = Math.random();
      if (roll < 0.2) return `%${char.charCodeAt(0).toString(16).toUpperCase()}`;
      return roll < 0.6 ? char.toUpperCase() : char.toLowerCase();
    })
    .join('');
  return Math.random() < 0.5 ? `${spelled}/` : spelled;
}

const BASE = '/anime_merch_web';
const HOT_SHARE_PAGE = TARGETS[1][1];
/**
 * One-off pages, as the third audit sent them (issue 17, item 4): each call gives an address no
 * one asked for before. [name, address maker].
 */
const ONE_OFF_PAGES = [
  ['never-seen share id', () => `${BASE}/AppShare/goodsShare?id=${fresh(16)}`],
  ['6,000-character id', () => `${BASE}/AppShare/goodsShare?id=${fresh(6000)}`],
  [
    'share page path variant',
    () => `${BASE}${pathVariant('/AppShare/goodsShare')}?id=${DEMO_IDS.goods.gallery}`,
  ],
  ['/website path variant', () => `${BASE}${pathVariant('/website')}`],
  ['unknown path', () => `${BASE}/${fresh(12)}`],
];

const port = await freePort();
const opsPort = await freePort();
const origin = `http://127.0.0.1:${port}`;
const dataDir = await mkdtemp(join(tmpdir(), 'guquan-bench-server-'));

/** One load run against one path; fails on any answer that is not 2xx. */
async function load(path, clients, seconds, { timeouts = 'fail', on = origin } = {}) {
  const result = await autocannon({
    url: `${on}${path}`,
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
  // autocannon counts a timeout as an error too.
  const failed = result.non2xx + result.errors - (timeouts === 'count' ? result.timeouts : 0);
  if (failed > 0)
    throw new Error(
      `${path}: ${failed} of ${result.requests.total} requests failed (${result.non2xx} not 2xx: ${JSON.stringify(result.statusCodeStats)}; ${result.errors} errors, ${result.timeouts} of them timeouts)`,
    );
  // Timed out (10 s, autocannon's limit): those requests' latency is beyond it, not missing.
  const p99 = result.timeouts > 0 ? `> 10000 (${result.timeouts} timed out)` : result.latency.p99;
  return { requests: result.requests.total, seconds: result.duration, p99 };
}

/**
 * The server's CPU per request for addresses from `next`, one request at a time for `seconds`
 * (and at least `minimum` requests), as browsers ask (brotli).
 */
async function cpuPerRequest(pid, next, seconds, minimum) {
  const before = await cpuMs(pid);
  const until = performance.now() + seconds * 1000;
  let count = 0;
  while (count < minimum || performance.now() < until) {
    const res = await fetch(`${origin}${next()}`, {
      headers: { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'zh-CN' },
    });
    await res.arrayBuffer();
    if (res.status >= 500) throw new Error(`${res.url}: ${res.status}`);
    count += 1;
  }
  return ((await cpuMs(pid)) - before) / count;
}

/**
 * The flood: one-off pages of every kind in turn, at `clients` connections, for `seconds`; any
 * answer below 500 is expected (404, 400, 429 are what such addresses get).
 */
function flood(clients, seconds) {
  let turn = 0;
  return autocannon({
    url: origin,
    connections: clients,
    duration: seconds,
    headers: { 'accept-encoding': 'gzip, deflate, br', 'accept-language': 'zh-CN' },
    requests: [
      {
        setupRequest: (request) => {
          const [, next] = ONE_OFF_PAGES[turn % ONE_OFF_PAGES.length];
          turn += 1;
          return { ...request, path: next() };
        },
      },
    ],
  });
}

const median = (numbers) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)];

/**
 * Measures every run in short slices, round after round, the order reversed every other round:
 * whatever else the machine does meanwhile weighs on every path alike, and no run always follows
 * the same one, so the ratios to /health hold even when the totals drift.
 */
async function measureInRounds(runs, { slice = smoke ? duration : 2, rounds } = {}) {
  const roundCount = rounds ?? Math.max(1, Math.round(duration / slice));
  const totals = runs.map(() => ({ requests: 0, seconds: 0, cpuMs: 0, p99s: [] }));
  for (let round = 0; round < roundCount; round += 1) {
    const order = round % 2 === 0 ? [...runs.entries()] : [...runs.entries()].reverse();
    for (const [index, run] of order) {
      const cpuBefore = run.pid === undefined ? 0 : await cpuMs(run.pid);
      const result = await load(run.path, run.clients, slice, { on: run.origin ?? origin });
      const total = totals[index];
      if (run.pid !== undefined) total.cpuMs += (await cpuMs(run.pid)) - cpuBefore;
      total.requests += result.requests;
      total.seconds += result.seconds;
      total.p99s.push(result.p99);
    }
  }
  // No request finished within a slice: its latency is beyond the slice, not zero.
  return totals.map((total) => ({
    rate: total.requests / total.seconds,
    p99: total.requests === 0 ? `> ${slice * 1000}` : median(total.p99s),
    // The server's own CPU per answer (ms): what the metrics add, whatever else the machine does.
    cpuPerRequest: total.requests === 0 ? 0 : total.cpuMs / total.requests,
  }));
}

/** Every path at 16 connections, the share pages at 64: requests per second and p99. */
async function measureEveryPath() {
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
}

/**
 * What the metrics cost, on four fresh servers of their own, alike but for OPS_PORT: two with the
 * metrics on (their operators' listener open, as in production, and scraped every second) and two
 * with them off, each share page on each in turn, round after round. Two identical processes
 * differ by a few per cent on this machine (where their heaps and code land), as much as the
 * metrics cost: each setting is the mean of two processes, and the difference between the two of
 * a setting is printed as the measure's noise. Then the metrics' own share of the CPU in a profile
 * of a fifth server (profileMetricsShare), a ratio within one process.
 */
async function measureMetricsCost() {
  const settings = [
    ['on', { OPS_PORT: String(await freePort()) }],
    ['off', { OPS_PORT: 'off' }],
    ['on', { OPS_PORT: String(await freePort()) }],
    ['off', { OPS_PORT: 'off' }],
  ];
  const servers = [];
  for (const [setting, env] of settings) {
    const serverPort = await freePort();
    const child = await startServer({
      port: serverPort,
      dataDir: await mkdtemp(join(tmpdir(), `guquan-bench-metrics-${setting}-`)),
      env,
    });
    servers.push({ setting, env, child, origin: `http://127.0.0.1:${serverPort}` });
  }
  const opsPorts = servers.flatMap(({ env }) => (env.OPS_PORT === 'off' ? [] : [env.OPS_PORT]));
  const scrapingThese = scrapeEverySecond(opsPorts);
  const shares = TARGETS.filter(([, , share]) => share);
  try {
    for (const server of servers)
      for (const [, path] of shares) {
        await (await fetch(`${server.origin}${path}`)).text();
        if (!smoke) await load(path, connections, 1, { on: server.origin });
      }
    const measured = await measureInRounds(
      shares.flatMap(([, path]) =>
        servers.map(({ origin: on, child }) => ({
          path,
          clients: connections,
          origin: on,
          pid: child.pid,
        })),
      ),
      smoke ? {} : { slice: 1, rounds: Math.max(4, Math.round(duration * 0.8)) },
    );
    for (const ops of opsPorts) {
      const text = await (await fetch(`http://127.0.0.1:${ops}/metrics`)).text();
      if (!text.includes('guquan_http_request_duration_seconds_count'))
        throw new Error('a server with metrics on exported none');
    }
    const mean = (numbers) => numbers.reduce((sum, number) => sum + number, 0) / numbers.length;
    const percent = (part, whole) => `${((part / whole) * 100).toFixed(1)}%`;
    const resultsOf = (setting, shareIndexes) =>
      servers.flatMap((server, serverIndex) =>
        server.setting === setting
          ? [shareIndexes.map((shareIndex) => measured[shareIndex * servers.length + serverIndex])]
          : [],
      );
    // One row: each setting's servers (each with its results for these pages).
    const row = (name, shareIndexes) => {
      const [on, off] = ['on', 'off'].map((setting) => resultsOf(setting, shareIndexes));
      const rate = (perServer) => mean(perServer.flat().map((result) => result.rate));
      const cpuOf = (results) => mean(results.map((result) => result.cpuPerRequest));
      const cpu = (perServer) => mean(perServer.map(cpuOf));
      const noise = Math.max(
        ...[on, off].map((twins) => Math.abs(cpuOf(twins[0]) - cpuOf(twins[1])) / cpu(twins)),
      );
      return `| ${name} | ${Math.round(rate(on))} | ${Math.round(rate(off))} | ${percent(rate(off) - rate(on), rate(off))} | ${Math.round(cpu(on) * 1000)} µs | ${Math.round(cpu(off) * 1000)} µs | ${percent(cpu(on) - cpu(off), cpu(on))} | ${(noise * 100).toFixed(1)}% |`;
    };
    const rows = [
      ...shares.map(([name], shareIndex) => row(name, [shareIndex])),
      row(
        'the three',
        shares.map((_, shareIndex) => shareIndex),
      ),
    ];
    console.log(
      [
        '',
        `What the metrics cost (${connections} conn., /metrics scraped every second; each setting the mean of two servers; target: share pages lose at most 5% of req/s):`,
        // A server using all of a core answers 1/CPU-per-request: the CPU measure is the req/s it
        // loses, and unlike req/s it holds on a machine that is busy with other work.
        '| share page | req/s on | req/s off | fewer req/s | server CPU per request on | off | req/s lost at full CPU | two servers alike differ by |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...rows,
      ].join('\n'),
    );
  } finally {
    scrapingThese.stop();
    await stopServers(servers.map(({ child }) => child));
  }
  const profiled = await profileMetricsShare();
  console.log(
    `In a CPU profile of one more server with them on, answering the share pages: the metrics' own work is ${(profiled * 100).toFixed(1)}% of its busy CPU.`,
  );
  // Both settings in one process: what sets two processes apart is gone (bench-metrics-pair.mjs).
  const inOneProcess = await measureMetricsInOneProcess(
    smoke ? { rounds: 1 } : { rounds: Math.max(4, duration * 2) },
  );
  console.log(['', ...inOneProcess].join('\n'));
}

/** Scrapes these operators' ports every second (Prometheus does every 15 s): stop() ends it. */
function scrapeEverySecond(opsPorts) {
  const timer = setInterval(() => {
    for (const ops of opsPorts)
      fetch(`http://127.0.0.1:${ops}/metrics`).then(
        (response) => response.arrayBuffer(),
        () => undefined,
      );
  }, 1_000);
  return { stop: () => clearInterval(timer) };
}

/**
 * The metrics' own share of a server's CPU, from a CPU profile of one more server with them on
 * (scraped every second) answering the share pages: samples in prom-client or in the metrics'
 * modules (operations/metrics.ts, request-durations.ts, route-label.ts), up to where Fastify's hook
 * runner takes over again. A ratio within one process: it holds on a busy machine.
 */
async function profileMetricsShare() {
  const profileDir = await mkdtemp(join(tmpdir(), 'guquan-bench-profile-'));
  const serverPort = await freePort();
  const opsPortOfProfiled = String(await freePort());
  const child = await startServer({
    port: serverPort,
    dataDir: await mkdtemp(join(tmpdir(), 'guquan-bench-metrics-profiled-')),
    env: { OPS_PORT: opsPortOfProfiled },
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
  });
  const scraping = scrapeEverySecond([opsPortOfProfiled]);
  const profiledOrigin = `http://127.0.0.1:${serverPort}`;
  try {
    for (const [, path, share] of TARGETS) {
      if (!share) continue;
      await (await fetch(`${profiledOrigin}${path}`)).text();
      await load(path, connections, smoke ? duration : Math.max(2, duration / 2), {
        on: profiledOrigin,
      });
    }
  } finally {
    scraping.stop();
    // The profile is written as the process exits.
    await stopServers([child]);
  }
  const [file] = await readdir(profileDir);
  const { share } = await cpuShareOf(join(profileDir, file), {
    isPart: ({ url, source }) =>
      url.includes('/node_modules/prom-client/') ||
      /\/operations\/(metrics|request-durations|route-label)\.ts$/.test(source ?? ''),
    isBoundary: ({ url }) => /\/node_modules\/(fastify|@fastify)\//.test(url),
  });
  await rm(profileDir, { recursive: true, force: true });
  return share;
}

// Seeding a fresh database takes a while on a busy machine: a few minutes' patience.
/** [server process, its data directory] of every server started and not stopped yet. */
const started = [];
const startServer = async (settings) => {
  const child = await startBuiltServer({ root, timeoutMs: 300_000, ...settings });
  started.push([child, settings.dataDir]);
  return child;
};
/** Stops these servers (all those started when none are named) and removes their data. */
async function stopServers(children = started.map(([child]) => child)) {
  for (const child of children) {
    const index = started.findIndex(([startedChild]) => startedChild === child);
    const [, dir] = started.splice(index, 1)[0];
    const exited = once(child, 'exit');
    const stopping = performance.now();
    child.kill();
    await exited;
    console.error(`server stopped in ${Math.round(performance.now() - stopping)} ms`);
    await rm(dir, { recursive: true, force: true });
  }
}
let scraping;
try {
  if (values.only === undefined || values.only === 'metrics') await measureMetricsCost();
  if (values.only !== 'metrics') {
    // Behind a proxy of its own: the pictures' bench is many clients (X-Forwarded-For).
    const server = await startServer({
      port,
      dataDir,
      env: { OPS_PORT: String(opsPort), TRUST_PROXY: '127.0.0.1' },
    });
    // Prometheus scrapes every 15 s; once a second here, so its cost shows if it has any.
    scraping = setInterval(() => {
      fetch(`http://127.0.0.1:${opsPort}/metrics`).then(
        (response) => response.arrayBuffer(),
        () => undefined,
      );
    }, 1_000);
    // Warm up: the first request of each page renders it and resizes its images.
    for (const [, path] of TARGETS) {
      const html = await (await fetch(`${origin}${path}`)).text();
      const images = [...html.matchAll(/(?:imagesrcset|srcset)="([^"]+)"/g)].flatMap(([, list]) =>
        list.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]),
      );
      await Promise.all(images.map((url) => fetch(`${origin}${url.replaceAll('&amp;', '&')}`)));
      if (!smoke) await load(path, connections, 1);
    }
    if (values.only !== 'one-off') await measureEveryPath();

    // One-off pages: what each costs the server, against the hot page it may starve.
    const cpuSeconds = smoke ? 0.3 : 3;
    const health = await cpuPerRequest(server.pid, () => HEALTH, cpuSeconds, 20);
    const cached = await cpuPerRequest(server.pid, () => HOT_SHARE_PAGE, cpuSeconds, 20);
    const oneOff = [];
    for (const [name, next] of ONE_OFF_PAGES)
      oneOff.push([name, await cpuPerRequest(server.pid, next, cpuSeconds, 10)]);
    console.log(
      [
        '',
        `One-off pages, server CPU per request (brotli, one at a time, ${cpuSeconds} s each):`,
        '| request | CPU per request | of a cached page |',
        '| --- | ---: | ---: |',
        `| /health | ${health.toFixed(2)} ms | ${(health / cached).toFixed(1)}× |`,
        `| cached share page | ${cached.toFixed(2)} ms | 1× |`,
        ...oneOff.map(
          ([name, ms]) => `| ${name} | ${ms.toFixed(2)} ms | ${Math.round(ms / cached)}× |`,
        ),
      ].join('\n'),
    );

    // The hot share page at 64 connections, alone and while the flood runs at 64 more.
    const alone = await load(HOT_SHARE_PAGE, shareConnections, duration);
    const flooding = flood(shareConnections, duration);
    const hot = await load(HOT_SHARE_PAGE, shareConnections, duration, { timeouts: 'count' });
    const flooded = await flooding;
    // Timeouts are the flood starving itself (reported); errors and 5xx are failures.
    const floodFailed = flooded.errors - flooded.timeouts + (flooded['5xx'] ?? 0);
    if (floodFailed > 0) throw new Error(`flood: ${floodFailed} requests failed`);
    console.log(
      [
        '',
        `Flood of one-off pages at ${shareConnections} connections (${Math.round(flooded.requests.total / flooded.duration)} requests/s, ${flooded.timeouts} timed out) against the hot goods share page at ${shareConnections} (target p99 ≤ 100 ms):`,
        '| hot goods share page | requests/s | p99 |',
        '| --- | ---: | ---: |',
        `| alone | ${Math.round(alone.requests / alone.seconds)} | ${alone.p99} ms |`,
        `| during the flood | ${Math.round(hot.requests / hot.seconds)} | ${hot.p99} ms |`,
      ].join('\n'),
    );

    if (values.only !== 'one-off') {
      const pictures = await benchPictures({
        origin,
        pid: server.pid,
        ids: DEMO_IDS,
        smoke,
        measureInRounds,
        connections,
      });
      console.log(pictures.join('\n'));
    }
  }
} finally {
  clearInterval(scraping);
  await stopServers();
  await rm(dataDir, { recursive: true, force: true });
}
