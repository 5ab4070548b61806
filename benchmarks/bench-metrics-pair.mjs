// What the metrics cost, measured inside one process: two apps alike but for the metrics (on,
// its /metrics scraped every second; off) in one Node process (metrics-pair-server.mjs), each
// cached share page asked of each in one-second turns at 16 connections, the order reversed
// every other round. Two processes differ by a few per cent on this machine however alike they
// are (where their heaps and code land); one process running both apps takes that out, and
// whatever else the machine does weighs on both alike.
// Part of `npm run bench:server` (bench-server.mjs calls measureMetricsInOneProcess); alone:
//   npm run build && node benchmarks/bench-metrics-pair.mjs [--rounds 20]
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { serverBuildOptions } from '../apps/server/build-config.mjs';
import { freePort, loadDemoIds } from './bench-support.mjs';

/**
 * Runs the measure (`rounds` rounds, each a turn of `seconds` per page and side) on this
 * checkout's build and returns its Markdown lines.
 */
export async function measureMetricsInOneProcess({ rounds = 20, seconds = 1 } = {}) {
  const ids = await loadDemoIds();
  const SHARES = [
    ['goods share', `/anime_merch_web/AppShare/goodsShare?id=${ids.goods.gallery}`],
    ['cabinet share', `/anime_merch_web/AppShare/cabinetShare?id=${ids.cabinets.main}`],
    ['note share', `/anime_merch_web/AppShare/notesShare?id=${ids.notes.rich}`],
  ];
  const serverDir = resolve('apps/server');
  // Beside the server's own bundle: demo mode finds its files from there (demo/test-chain.ts).
  const outdir = join(serverDir, 'dist');
  await build({
    ...serverBuildOptions({ outdir, absWorkingDir: serverDir }),
    entryPoints: { 'metrics-pair-server': resolve('benchmarks/metrics-pair-server.mjs') },
    logLevel: 'warning',
  });

  const dirs = [
    await mkdtemp(join(tmpdir(), 'guquan-pair-on-')),
    await mkdtemp(join(tmpdir(), 'guquan-pair-off-')),
  ];
  const [portOn, opsPort, portOff] = [await freePort(), await freePort(), await freePort()];
  const child = fork(
    join(outdir, 'metrics-pair-server.js'),
    [resolve('apps/web/dist'), ...dirs, String(portOn), String(opsPort), String(portOff)],
    { stdio: 'inherit' },
  );
  await once(child, 'message');
  const scraping = setInterval(() => {
    fetch(`http://127.0.0.1:${opsPort}/metrics`).then(
      (response) => response.arrayBuffer(),
      () => undefined,
    );
  }, 1_000);

  const load = async (port, path, turnSeconds) => {
    const result = await autocannon({
      url: `http://127.0.0.1:${port}${path}`,
      connections: 16,
      duration: turnSeconds,
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
    });
    if (result.non2xx + result.errors > 0) throw new Error(`${path}: requests failed`);
    return result.requests.total / result.duration;
  };

  try {
    const sides = [
      ['on', portOn],
      ['off', portOff],
    ];
    for (const [, port] of sides) for (const [, path] of SHARES) await load(port, path, seconds);
    const rates = new Map();
    for (let round = 0; round < rounds; round += 1) {
      const turns = SHARES.flatMap(([name, path]) =>
        sides.map(([side, port]) => [name, side, port, path]),
      );
      for (const [name, side, port, path] of round % 2 === 0 ? turns : turns.reverse()) {
        const key = `${name}/${side}`;
        rates.set(key, [...(rates.get(key) ?? []), await load(port, path, seconds)]);
      }
    }
    const mean = (numbers) => numbers.reduce((sum, number) => sum + number, 0) / numbers.length;
    const lines = [
      `What the metrics cost inside one process (16 conn., ${rounds} rounds of ${seconds} s, /metrics scraped every second):`,
      '| share page | req/s on | req/s off | fewer req/s |',
      '| --- | ---: | ---: | ---: |',
    ];
    let [allOn, allOff] = [0, 0];
    for (const [name] of SHARES) {
      const [on, off] = [mean(rates.get(`${name}/on`)), mean(rates.get(`${name}/off`))];
      allOn += on;
      allOff += off;
      lines.push(
        `| ${name} | ${Math.round(on)} | ${Math.round(off)} | ${(((off - on) / off) * 100).toFixed(1)}% |`,
      );
    }
    lines.push(
      `| the three | ${Math.round(allOn / 3)} | ${Math.round(allOff / 3)} | ${(((allOff - allOn) / allOff) * 100).toFixed(1)}% |`,
    );
    return lines;
  } finally {
    clearInterval(scraping);
    child.kill('SIGTERM');
    await once(child, 'exit');
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' } } });
  console.log((await measureMetricsInOneProcess({ rounds: Number(values.rounds) })).join('\n'));
}
