// `npm run cluster`: the production-shaped cluster on one machine (see docs/operations.md,
// "Running it for real on one machine"): a throwaway PostgreSQL and Redis, the stand-in platform (unless
// PLATFORM_* name one), the migrate step (`npm run migrate`'s command, once, before any server;
// its failure stops the start with its message), INSTANCES app servers (default 2), nginx in front
// on PORT (default 8080) and Prometheus scraping the servers. Needs a build (`npm run build`). Ctrl-C, or SIGTERM to the process
// group, stops everything it started.
//
//   PORT=8080 INSTANCES=2 NGINX_CACHE=on npm run cluster
import './load-typescript.mjs';

const { startCluster } = await import('../tests/support/cluster.ts');

function positiveInteger(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 65535) {
    console.error(`${name} must be a whole number from 1 to 65535, not ${raw}`);
    process.exit(1);
  }
  return value;
}

const port = positiveInteger('PORT', 8080);
const instances = positiveInteger('INSTANCES', 2);
const cacheSetting = process.env.NGINX_CACHE ?? 'on';
if (!['on', 'off'].includes(cacheSetting)) {
  console.error(`NGINX_CACHE must be on or off, not ${cacheSetting}`);
  process.exit(1);
}

let starting;
let stopping = false;
async function shutDown(signal) {
  if (stopping) return;
  stopping = true;
  console.log(`\n${signal}: stopping Prometheus, nginx, the app servers, Redis and PostgreSQL…`);
  // A start in progress finishes (or fails and cleans up) first, then everything is stopped.
  await starting?.then(
    (cluster) => cluster.stop(),
    () => undefined,
  );
  console.log('Stopped.');
  process.exit(0);
}
// Registered before anything starts, so a Ctrl-C during the start still cleans up.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    void shutDown(signal);
  });
}

starting = startCluster({
  port,
  instances,
  cache: cacheSetting === 'on',
  // The app servers get this environment (APP_MODE, LOG_LEVEL, …); the cluster sets their PORT.
  env: process.env,
  log: (line) => console.log(`  ${line}`),
});
try {
  const cluster = await starting;
  if (!stopping) {
    console.log(
      `\n谷圈 web cluster ready: ${cluster.origin}/anime_merch_web/website ` +
        `(${instances} app servers behind nginx; Ctrl-C stops everything)\n` +
        `  the app's link domain: ${cluster.linkOrigin}/\n` +
        `  Prometheus: ${cluster.prometheus.url}/targets (alerts: ${cluster.prometheus.url}/alerts); ` +
        `operators' pages: ${cluster.servers.map((server) => `http://127.0.0.1:${server.opsPort}/funnel`).join(', ')}`,
    );
  }
} catch (error) {
  if (!stopping) {
    console.error(`The cluster did not start: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
