// `npm run bench:cluster`: share-page requests per second through nginx, with 1 and 2 app servers,
// nginx's cache off and on, and their p99 latency (autocannon), each beside /health through nginx
// in the same run. Not a test: the figures depend on
// the machine. Needs a build (`npm run build`).
//
//   npm run bench:cluster [-- --seconds 10] [-- --connections 32] [-- --ports 18700-18720]
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { HEALTH_PATH, startCluster } from './bench-support.mjs';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '32' },
    ports: { type: 'string', default: '18700-18720' },
  },
});
const [from, to] = values.ports.split('-').map(Number);
const GALLERY = 'XT9gwR1a_mH_vtRA';
// The language by URL: the form of a share page a shared cache may keep (a page whose language
// comes from Accept-Language is private to the visitor).
const SHARE_PAGE = `/anime_merch_web/AppShare/goodsShare?id=${GALLERY}&lang=zh-CN`;

function run(url) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: Number(values.connections),
        duration: Number(values.seconds),
        headers: { 'accept-encoding': 'gzip' },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

const rows = [];
for (const instances of [1, 2]) {
  for (const cache of [false, true]) {
    const cluster = await startCluster({
      instances,
      cache,
      ports: [from, to],
      serverOutput: 'ignore',
      env: { ...process.env, LOG_LEVEL: 'warn' },
    });
    try {
      const url = `${cluster.origin}${SHARE_PAGE}`;
      // Warm-up: the page rendered once, the connections made.
      await run(url).catch(() => undefined);
      const result = await run(url);
      // The same path through nginx to a server and back, doing nothing: what this machine can
      // do at all in this run. Only the ratio means something on a shared machine.
      const health = await run(`${cluster.origin}${HEALTH_PATH}`);
      rows.push({
        servers: instances,
        cache: cache ? 'on' : 'off',
        'req/s': Math.round(result.requests.average),
        'of /health': `${Math.round((100 * result.requests.average) / health.requests.average)}%`,
        'p50 ms': result.latency.p50,
        'p99 ms': result.latency.p99,
        non2xx: result.non2xx,
        errors: `${result.errors} (${result.timeouts} timeouts)`,
      });
      console.log(rows.at(-1));
    } finally {
      await cluster.stop();
    }
  }
}

console.log(
  `\nShare page ${SHARE_PAGE}, ${values.connections} connections, ${values.seconds} s each:`,
);
console.log('| servers | nginx cache | req/s | of /health | p50 ms | p99 ms | non-2xx | errors |');
console.log('| ---: | :---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  console.log(
    `| ${row.servers} | ${row.cache} | ${row['req/s']} | ${row['of /health']} | ${row['p50 ms']} | ${row['p99 ms']} | ${row.non2xx} | ${row.errors} |`,
  );
}
