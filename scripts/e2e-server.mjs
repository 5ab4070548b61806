// The browser tests' server (playwright.config.ts, `webServer`): runs the built server (the script
// given, apps/server/dist/server.js) on a fresh data directory, DATA_DIR, and removes that
// directory again once the server has stopped, so a run on a free port leaves no
// /tmp/guquan-e2e-data-<port> behind. Playwright stops it with SIGTERM to the whole process group
// (`gracefulShutdown`): the server gets the signal itself and closes; then the directory goes. A
// signal sent to this process alone is passed on to the server.
//
//   DATA_DIR=/tmp/guquan-e2e-data-20000 node scripts/e2e-server.mjs apps/server/dist/server.js
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';

/** How long the server has to take a group's signal itself before it is passed on. */
const PASS_ON_AFTER_MS = 2_000;

function removeDataDir(dir) {
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

const [serverScript, ...serverArgs] = process.argv.slice(2);
const dataDir = process.env.DATA_DIR;
if (!serverScript || !dataDir) {
  console.error('Usage: DATA_DIR=<directory> node scripts/e2e-server.mjs <server script> [args…]');
  process.exit(2);
}

// A fresh database on every run, seeded with the demo data by the server.
removeDataDir(dataDir);
const server = spawn(process.execPath, [serverScript, ...serverArgs], { stdio: 'inherit' });
let stopping = false;

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    setTimeout(() => {
      if (server.exitCode === null && server.signalCode === null) server.kill(signal);
    }, PASS_ON_AFTER_MS).unref();
  });
}

server.on('exit', (code, signal) => {
  removeDataDir(dataDir);
  // Stopped as asked: a clean end. Otherwise the server's own failure, for Playwright to report.
  process.exit(stopping ? 0 : (code ?? (signal ? 1 : 0)));
});
