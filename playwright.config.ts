import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests: the real server (the production build, as `npm start` runs it) on loopback,
 * driven in Debian's Chromium with an iPhone and an Android profile. Never a downloaded browser.
 */
/**
 * The suite's server, and the ports from it up to +127 that specs use beside it. Without E2E_PORT,
 * a free span is chosen once, here in the main process, and put in E2E_PORT: the workers, which
 * load this file again and read E2E_PORT in specs, inherit the main process's environment, so all
 * agree, and a server already listening on the machine (on 18080, say) fails nothing.
 */
process.env.E2E_PORT ??= execFileSync(process.execPath, ['scripts/e2e-free-port.mjs'], {
  cwd: import.meta.dirname,
  encoding: 'utf8',
}).trim();
const port = Number(process.env.E2E_PORT);
/** The server's operators' listener (OPS_PORT), next to the suite's ports: the funnel spec reads it. */
export const E2E_OPS_PORT = port + 50;
// The server starts on a fresh database, seeded with the demo data, on every run, in a directory
// scripts/e2e-server.mjs removes again when the server stops.
const dataDir = join(tmpdir(), `guquan-e2e-data-${port}`);
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const launchOptions = {
  executablePath,
  args: [
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
};

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Limits on waits for what a test means, never speed promises (those are benchmarks,
  // docs/performance.md): generous, so a machine at a quarter of its speed passes (issue 42).
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'iphone',
      use: { ...devices['iPhone 13'], browserName: 'chromium', launchOptions },
    },
    {
      name: 'android',
      use: { ...devices['Pixel 7'], browserName: 'chromium', launchOptions },
      // Tests that change the shared demo data run once, in the iPhone project.
      grepInvert: /@once/,
    },
  ],
  webServer: {
    command: 'node scripts/e2e-server.mjs apps/server/dist/server.js',
    url: `http://127.0.0.1:${port}/anime_merch_web/api/v1/health`,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      OPS_PORT: String(E2E_OPS_PORT),
    },
    reuseExistingServer: false,
    timeout: 180_000,
    // SIGTERM to the server's process group, so it closes and its data directory is removed.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
  },
});
