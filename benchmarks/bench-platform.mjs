// The platform's events coming in (issue 29, section 4), in one run:
//
// 1. Over HTTP on SQLite: one built server (demo mode, every PLATFORM_* setting given, so it
//    seeds nothing); its /health requests per second, then signed deliveries of 500 events (users
//    and their goods, all new) sent by a few senders at once for as long. Targets: at least 1,000
//    events/s, and at least half as many events per second as the same process answered /health.
// 2. `npm run platform:import` into PostgreSQL: a file of 1,000,000 goods with their users
//    (50,000, 20 goods each), the built command's time and its memory (resident set) as it goes.
//    Targets: under 5 minutes, memory flat (the last quarter's peak within 1.5× the first's).
//
//   npm run build && npm run bench:platform [-- --duration 10] [-- --goods 1000000]
//   npm run bench:platform -- --smoke    a few seconds: both paths work, nothing is measured
//   npm run bench:platform -- --only http | import
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { Webhook } from 'standardwebhooks';
import { cpuMs, freePort, startBuiltServer, startPostgres } from './bench-support.mjs';
import { communityEvents, writeEventFile } from './platform-events.mjs';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    senders: { type: 'string', default: '4' },
    goods: { type: 'string', default: '1000000' },
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
const smoke = values.smoke;
const duration = smoke ? 1 : Number(values.duration);
const connections = smoke ? 2 : Number(values.connections);
const senders = smoke ? 1 : Number(values.senders);
const goodsToImport = smoke ? 500 : Number(values.goods);
const GOODS_PER_USER = 20;
const PER_DELIVERY = 500;
const root = resolve('.');

const HEALTH = '/anime_merch_web/api/v1/health';
const EVENTS = '/anime_merch_web/api/v1/platform/events';
const SECRET = `whsec_${Buffer.alloc(32, 29).toString('base64')}`;

/** Every PLATFORM_* setting: the site then uses "the platform" (this script) and seeds nothing. */
function platformEnv(mediaOrigin) {
  return {
    PLATFORM_WEBHOOK_SECRETS: SECRET,
    PLATFORM_ISSUER: 'https://platform.bench.example',
    PLATFORM_JWKS_URL: `${mediaOrigin}/.well-known/jwks.json`,
    PLATFORM_MEDIA_ORIGINS: mediaOrigin,
    PLATFORM_API_URL: mediaOrigin,
    PLATFORM_API_TOKEN: 'bench-platform-api-token',
    PLATFORM_EVENTS_URL: `${mediaOrigin}/events`,
    PLATFORM_EVENTS_SECRET: SECRET,
  };
}

const format = new Intl.NumberFormat('en-US');
const MB = 1024 * 1024;

/** The platform's media origin: one small JPEG at every path, as the site fetches it. */
async function startMediaOrigin() {
  const jpeg = await sharp({
    create: { width: 96, height: 128, channels: 3, background: '#d8c4a8' },
  })
    .jpeg()
    .toBuffer();
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': jpeg.length });
    response.end(jpeg);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

/** Deliveries of 500 events, made as they are asked for. */
function* deliveries(mediaOrigin) {
  let batch = [];
  for (const event of communityEvents({
    users: Number.MAX_SAFE_INTEGER,
    goodsPerUser: GOODS_PER_USER - 1,
    mediaOrigin,
  })) {
    batch.push(event);
    if (batch.length === PER_DELIVERY) {
      yield batch;
      batch = [];
    }
  }
}

/** Sends one delivery, signed now; throws unless the site applied all of it. */
async function deliver(origin, events, serial) {
  const body = JSON.stringify({ events });
  const id = `msg_bench_${serial}`;
  const at = new Date();
  const response = await fetch(`${origin}${EVENTS}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': new Webhook(SECRET).sign(id, at, body),
    },
    body,
  });
  const answer = await response.text();
  if (response.status !== 200) throw new Error(`delivery ${serial}: ${response.status} ${answer}`);
  const { applied } = JSON.parse(answer);
  if (applied !== events.length) throw new Error(`delivery ${serial}: ${answer}`);
  return events.length;
}

async function benchHttp() {
  const media = await startMediaOrigin();
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = await mkdtemp(join(tmpdir(), 'guquan-bench-platform-'));
  const server = await startBuiltServer({
    root,
    port,
    dataDir,
    env: { ...platformEnv(media.origin), LOG_LEVEL: 'error' },
  });
  try {
    const health = await autocannon({ url: `${origin}${HEALTH}`, connections, duration });
    if (health.non2xx > 0 || health.errors > 0) throw new Error('/health failed under load');
    const healthRate = health.requests.total / duration;

    const source = deliveries(media.origin);
    let serial = 0;
    let events = 0;
    let deliveriesSent = 0;
    const started = performance.now();
    const until = started + duration * 1000;
    const sender = async () => {
      while (performance.now() < until) {
        const batch = source.next().value;
        serial += 1;
        // Not `events += await …`: that would add to the count as it was before the wait.
        const applied = await deliver(origin, batch, serial);
        events += applied;
        deliveriesSent += 1;
      }
    };
    await Promise.all(Array.from({ length: senders }, sender));
    const seconds = (performance.now() - started) / 1000;
    const eventRate = events / seconds;
    const ratio = eventRate / healthRate;
    console.log(
      [
        `Events over HTTP on SQLite (one server; /health at ${connections} connections for ${duration} s, then deliveries of ${PER_DELIVERY} by ${senders} senders for ${duration} s):`,
        `  /health              ${format.format(Math.round(healthRate))} requests/s`,
        `  events               ${format.format(Math.round(eventRate))} events/s (${format.format(deliveriesSent)} deliveries, ${format.format(Math.round((seconds * 1000) / Math.max(1, deliveriesSent / senders)))} ms each)`,
        `  events ÷ /health     ${ratio.toFixed(2)}`,
        smoke
          ? '  (smoke run: nothing measured)'
          : `  targets: ≥ 1,000 events/s ${eventRate >= 1000 ? 'met' : 'MISSED'}; ≥ 0.5 × /health ${ratio >= 0.5 ? 'met' : 'MISSED'}`,
      ].join('\n'),
    );
    return smoke || (eventRate >= 1000 && ratio >= 0.5);
  } finally {
    server.kill('SIGTERM');
    await once(server, 'exit');
    media.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * CPU seconds PostgreSQL has used: the postmaster's own and that of its backends that have
 * ended (Linux: utime, stime, cutime and cstime of /proc/<pid>/stat, in ticks of 1/100 s).
 */
async function postgresCpuSeconds(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / 100;
}

/** The resident set of a process, in bytes (Linux), or NaN once it is gone. */
async function rssOf(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /^VmRSS:\s+(\d+) kB/m.exec(status)?.[1];
  return kb === undefined ? Number.NaN : Number(kb) * 1024;
}

async function benchImport() {
  const postgres = await startPostgres();
  const dir = await mkdtemp(join(tmpdir(), 'guquan-bench-import-'));
  try {
    const file = join(dir, 'events.jsonl');
    const users = Math.ceil(goodsToImport / GOODS_PER_USER);
    const lines = await writeEventFile(
      file,
      communityEvents({ users, goodsPerUser: GOODS_PER_USER, mediaOrigin: 'http://127.0.0.1:9' }),
    );
    const { size } = await stat(file);
    const postgresCpuBefore = await postgresCpuSeconds(postgres.pid);
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [join(root, 'apps/server/dist/platform-import.js'), file],
      {
        env: {
          PATH: process.env.PATH ?? '',
          DATA_DIR: join(dir, 'data'),
          DATABASE_URL: postgres.url(),
          LOG_LEVEL: 'error',
          ...platformEnv('http://127.0.0.1:9'),
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let output = '';
    child.stderr.on('data', (chunk) => (output += chunk.toString()));
    const samples = [];
    let commandCpuMs = 0;
    const sampler = setInterval(() => {
      void rssOf(child.pid).then((rss) => {
        if (Number.isFinite(rss)) samples.push({ at: performance.now() - started, rss });
      });
      void cpuMs(child.pid).then((ms) => {
        if (Number.isFinite(ms)) commandCpuMs = ms;
      });
    }, 500);
    const [code] = await once(child, 'exit');
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    if (code !== 0) throw new Error(`platform:import exited with ${code}:\n${output}`);
    // The import's connections have ended: their CPU is now the postmaster's children's.
    await new Promise((done) => setTimeout(done, 1000));
    const postgresCpu = (await postgresCpuSeconds(postgres.pid)) - postgresCpuBefore;
    const last = output.trim().split('\n').at(-1);
    const peak = (from, to) =>
      Math.max(
        0,
        ...samples
          .filter((s) => s.at >= from * seconds * 1000 && s.at <= to * seconds * 1000)
          .map((s) => s.rss),
      );
    const [q1, q2, q3, q4] = [peak(0, 0.25), peak(0.25, 0.5), peak(0.5, 0.75), peak(0.75, 1)];
    const flat = q4 <= 1.5 * q1;
    console.log(
      [
        `npm run platform:import into PostgreSQL: ${format.format(goodsToImport)} goods and ${format.format(users)} users (${format.format(lines)} lines, ${Math.round(size / MB)} MB):`,
        `  time                 ${seconds.toFixed(1)} s (${format.format(Math.round(lines / seconds))} events/s)`,
        `  CPU                  the command ${(commandCpuMs / 1000).toFixed(1)} s (to its last sample, every 0.5 s), PostgreSQL ${postgresCpu.toFixed(1)} s`,
        `  memory (RSS peak)    ${[q1, q2, q3, q4].map((rss) => `${Math.round(rss / MB)} MB`).join(' → ')} by quarter of the run`,
        `  its last word        ${last}`,
        smoke
          ? '  (smoke run: nothing measured)'
          : `  targets: under 5 minutes ${seconds < 300 ? 'met' : 'MISSED'}; memory flat ${flat ? 'met' : 'MISSED'}`,
      ].join('\n'),
    );
    return smoke || (seconds < 300 && flat);
  } finally {
    await rm(dir, { recursive: true, force: true });
    await postgres.stop();
  }
}

let met = true;
if (values.only !== 'import') met = (await benchHttp()) && met;
if (values.only !== 'http') met = (await benchImport()) && met;
if (!met) process.exitCode = 1;
