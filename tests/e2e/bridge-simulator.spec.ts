import { fileURLToPath } from 'node:url';
/// <reference lib="dom" />
/**
 * The bridge simulator in a real browser against the real server. Until the in-app pages call
 * connectBridge themselves, a test-only harness (apps/web/src/test-support/e2e-bridge-harness.ts,
 * bundled here with esbuild and served on our origin) calls it on an in-app route, so the
 * server's demo marker, the simulator chunk's logic, its panel and the demo log-in are exercised
 * as pages will use them. Production mode is checked on a second server: no marker, no demo
 * endpoints.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from '@playwright/test';
import { migrateBeforeServers } from '../support/built-migrate.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  open,
  test,
  waitForApp,
  withLang,
} from './fixtures.ts';

// A page that does not start the bridge itself (the harness does), on the demo server.
const IN_APP_PAGE = withLang(`${BASE_PATH}/agreement/exposureNote/ExposureNoteAgreement`, 'zh-CN');
const DEMO_META = '<meta name="guquan-mode" content="demo">';
const HARNESS_URL = `${BASE_PATH}/__e2e/bridge-harness.js`;
const HARNESS_CSS_URL = `${BASE_PATH}/__e2e/bridge-harness.css`;
const API = `${BASE_PATH}/api/v1`;

/** The part of the page's bridge the test calls (the harness puts it on window.e2eBridge). */
interface PageBridge {
  call(method: string, params: object): Promise<unknown>;
}

let harness: { js: string; css: string } | undefined;

/** Bundles the harness once per worker, as Vite would bundle the app (production React). */
async function bundleHarness(): Promise<{ js: string; css: string }> {
  if (harness) return harness;
  const result = await build({
    entryPoints: [
      join(import.meta.dirname, '../../apps/web/src/test-support/e2e-bridge-harness.ts'),
    ],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: 'out',
    jsx: 'automatic',
    loader: { '.css': 'local-css' },
    define: { 'process.env.NODE_ENV': '"production"' },
    minify: true,
    logLevel: 'silent',
  });
  const text = (extension: string) =>
    result.outputFiles.find((file) => file.path.endsWith(extension))?.text ?? '';
  harness = { js: text('.js'), css: text('.css') };
  return harness;
}

/** Opens an in-app route and calls connectBridge there; returns the transport it found. */
async function connectOnInAppPage(page: Page): Promise<string> {
  const { js, css } = await bundleHarness();
  await page.route(`**${HARNESS_URL}`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: js }),
  );
  await page.route(`**${HARNESS_CSS_URL}`, (route) =>
    route.fulfill({ contentType: 'text/css', body: css }),
  );
  await open(page, IN_APP_PAGE);
  await waitForApp(page);
  return page.evaluate(
    async ([script, style]) => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      link.href = style;
      const loaded = new Promise((resolve) => {
        link.addEventListener('load', resolve);
      });
      document.head.append(link);
      await loaded;
      const module = (await import(script)) as { connect: () => Promise<string> };
      return module.connect();
    },
    [HARNESS_URL, HARNESS_CSS_URL] as const,
  );
}

function callBridge(page: Page, method: string, params: object = {}): Promise<unknown> {
  return page.evaluate(
    ([name, args]) => {
      const bridge = (window as unknown as { e2eBridge: PageBridge }).e2eBridge;
      return bridge.call(name, args);
    },
    [method, params] as const,
  );
}

test('demo pages carry the mode marker and the demo log-in exists', async ({ request }) => {
  const html = await (await request.get(IN_APP_PAGE)).text();
  expect(html).toContain(DEMO_META);
  const users = await request.get(`${API}/demo/users`);
  expect(users.status()).toBe(200);
  expect(((await users.json()) as { users: unknown[] }).users.length).toBeGreaterThan(0);
});

test('on a demo server, connectBridge brings the simulator, which plays the app', async ({
  page,
}) => {
  // The panel asks for the demo SMS code: before any is sent that answers 204, which no browser
  // logs (it was a 404), so the console guard stays strict.
  expect(await connectOnInAppPage(page)).toBe('ios');
  await expect(callBridge(page, 'handshake')).resolves.toEqual({
    bridgeVersion: 1,
    platform: 'ios',
    appVersion: 'simulator',
  });
  await expect(callBridge(page, 'getSession')).resolves.toBeNull();

  const toggle = page.getByRole('button', { name: 'App simulator' });
  const size = await toggle.boundingBox();
  expect(size?.height).toBeGreaterThanOrEqual(44);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const panel = page.getByRole('complementary', { name: 'App simulator' });
  const user = panel.getByLabel('Demo user', { exact: true });
  // The demo users come from the server.
  await expect(user.locator(`option[value="${DEMO_IDS.users.satoru}"]`)).toHaveCount(1);
  await user.selectOption(DEMO_IDS.users.satoru);
  await expect
    .poll(() => callBridge(page, 'getSession'))
    .toMatchObject({ userId: DEMO_IDS.users.satoru });

  await expect(
    callBridge(page, 'storeKitProducts', { productIds: ['vip.monthly'] }),
  ).resolves.toMatchObject({ products: [{ id: 'vip.monthly', displayPrice: '¥25.00' }] });
  await callBridge(page, 'close');
  await expect(page.getByRole('status')).toContainText('The app would close this page now.');
  await expectNoAxeViolations(page);

  // A reload keeps the demo session, as the app keeps its log-in.
  expect(await connectOnInAppPage(page)).toBe('ios');
  await expect(callBridge(page, 'getSession')).resolves.toMatchObject({
    userId: DEMO_IDS.users.satoru,
  });
});

test('a page inside the app (a native handler present) does not get the simulator', async ({
  page,
}) => {
  await page.addInitScript(() => {
    (window as unknown as { webkit: unknown }).webkit = {
      messageHandlers: { goodsCircle: { postMessage: () => undefined } },
    };
  });
  expect(await connectOnInAppPage(page)).toBe('ios');
  await expect(page.getByRole('button', { name: 'App simulator' })).toHaveCount(0);
});

test.describe('production mode', () => {
  /** Anything else production mode will require is added here. */
  const PRODUCTION_ENV = {
    APP_MODE: 'production',
    PUBLIC_ORIGIN: 'https://example.com',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    // Production refuses to start without its App Store configuration; the test chain stands in.
    APPLE_BUNDLE_ID: 'com.guquan.app',
    APPLE_APP_APPLE_ID: '1234567890',
    APPLE_ENVIRONMENT: 'Production',
    ALIYUN_SMS_ACCESS_KEY_ID: 'test-key-id',
    ALIYUN_SMS_ACCESS_KEY_SECRET: 'test-key-secret',
    ALIYUN_SMS_SIGN_NAME: '谷圈',
    ALIYUN_SMS_TEMPLATE_CODE: 'SMS_000001',
    ALIYUN_SMS_TEMPLATE_ACCOUNT_DELETED: 'SMS_000002',
    // Phone numbers are stored encrypted: a fixed test key (32 bytes of 7s), never a real one.
    PHONE_ENCRYPTION_KEY: `test1:${Buffer.alloc(32, 7).toString('base64')}`,
    // The app's link domain and what its association files say (docs/decisions/0017-app-links-and-handoffs.md).
    LINK_ORIGIN: 'https://link.example.com',
    APPLE_TEAM_ID: 'TESTTEAM01',
    ANDROID_CERT_FINGERPRINTS: Array.from({ length: 32 }, () => 'AB').join(':'),
    APPLE_ROOT_CERTS_DIR: fileURLToPath(
      new URL('../../apps/server/src/demo/test-chain', import.meta.url),
    ),
    // The app's platform (nothing listens there: this test signs nobody in).
    PLATFORM_WEBHOOK_SECRETS: `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
    PLATFORM_ISSUER: 'https://platform.example.com',
    PLATFORM_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json',
    PLATFORM_MEDIA_ORIGINS: 'http://127.0.0.1:9',
    PLATFORM_API_URL: 'http://127.0.0.1:9',
    PLATFORM_API_TOKEN: 'test-platform-api-token',
    PLATFORM_EVENTS_URL: 'http://127.0.0.1:9/events',
    PLATFORM_EVENTS_SECRET: `whsec_${Buffer.alloc(32, 8).toString('base64')}`,
  };
  let server: ChildProcess | undefined;
  let dataDir = '';
  let origin = '';

  test.beforeAll(async () => {
    // A port of its own per worker: both device projects may run this at once.
    const port = Number(process.env.E2E_PORT ?? 18080) + 100 + test.info().workerIndex;
    origin = `http://127.0.0.1:${port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'guquan-e2e-production-'));
    const env = { ...PRODUCTION_ENV, PORT: String(port), DATA_DIR: dataDir };
    // A production server never migrates on start: the migrate step first, as a deployment does.
    await migrateBeforeServers({ env });
    const child = spawn(process.execPath, ['apps/server/dist/server.js'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    server = child;
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`production server exited: ${errors}`);
      const healthy = await fetch(`${origin}${API}/health`).then(
        (response) => response.ok,
        () => false,
      );
      if (healthy) break;
      if (Date.now() > deadline) throw new Error(`production server did not start: ${errors}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  test('has no demo marker and no demo endpoints, so the simulator cannot switch on', async ({
    request,
  }) => {
    const page = await request.get(`${origin}${IN_APP_PAGE}`);
    expect(page.status()).toBe(200);
    expect(await page.text()).not.toContain('guquan-mode');
    expect((await request.get(`${origin}${API}/demo/users`)).status()).toBe(404);
    const login = await request.post(`${origin}${API}/demo/sessions`, {
      data: { userId: DEMO_IDS.users.satoru },
    });
    expect(login.status()).toBe(404);
  });
});
