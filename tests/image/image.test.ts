import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import {
  API,
  dataVolume,
  envOptions,
  freePorts,
  IMAGE,
  podman,
  productionSettings,
  ROOT,
  runImage,
  startContainer,
  waitFor,
} from './podman.ts';

/**
 * The site's OCI image (issue 38 item 1; docs/operations.md, "The image"), built here by
 * `npm run image` with podman (layers and the base reused from podman's storage when nothing
 * changed; build-image.ts, before any test) and run as an operator would: non-root, read-only
 * root, settings from the environment.
 */

/** The final image's size limit (docs/performance.md, "The image": measured 430 MB on 2026-12-02). */
const SIZE_BUDGET_MB = 480;
interface Inspected {
  Size: number;
  Config: { User?: string; Labels?: Record<string, string>; Cmd?: string[] };
}
let image: Inspected = { Size: 0, Config: {} };
const scratch = mkdtempSync(join(tmpdir(), 'guquan-image-'));

beforeAll(() => {
  const [inspected] = JSON.parse(podman(['image', 'inspect', IMAGE]).stdout) as Inspected[];
  if (inspected) image = inspected;
});

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

describe('the image', () => {
  it('stays within its size budget', () => {
    const mb = image.Size / 1e6;
    console.log(`image size: ${mb.toFixed(0)} MB (budget ${SIZE_BUDGET_MB} MB)`);
    expect(mb).toBeLessThan(SIZE_BUDGET_MB);
  });

  it('says its version, revision and source in OCI labels', () => {
    const labels = image.Config.Labels ?? {};
    const server = JSON.parse(readFileSync(join(ROOT, 'apps/server/package.json'), 'utf8')) as {
      version: string;
    };
    expect(labels['org.opencontainers.image.version']).toBe(server.version);
    const head = spawnSync('git', ['-C', ROOT, 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    if (head.status === 0) {
      expect(labels['org.opencontainers.image.revision']).toMatch(
        new RegExp(`^${head.stdout.trim()}(-dirty)?$`),
      );
    }
    expect(labels['org.opencontainers.image.source']).toBeTruthy();
  });

  it('runs as a non-root user by its number (Kubernetes runAsNonRoot can check it)', () => {
    expect(image.Config.User).toBe('1000:1000');
    expect(runImage([], ['id', '-u']).stdout).toBe('1000');
  });

  it('holds the built site and production dependencies only: no compiler, dev tool or test', () => {
    const probe = runImage(
      [],
      [
        'sh',
        '-c',
        [
          'for c in gcc g++ cc c++ make python3; do command -v $c; done',
          'for d in vitest typescript vite esbuild eslint prettier @playwright/test lighthouse; do [ ! -e node_modules/$d ] || echo node_modules/$d; done',
          'find /app/apps /app/packages -name "*.test.*" -o -name "*.ts" -not -path "*/node_modules/*" | head -5',
          'ls -d /app/tests /app/apps/server/src/db /app/apps/web/src 2>/dev/null',
          'true',
        ].join('; '),
      ],
    );
    expect(probe.status).toBe(0);
    expect(probe.stdout).toBe('');
    const listing = runImage([], ['ls', 'apps/server/dist', 'apps/web/dist']);
    expect(listing.stdout).toContain('server.js');
    expect(listing.stdout).toContain('migrate.js');
    expect(listing.stdout).toContain('client');
  });

  it('refuses production without its settings, naming them', () => {
    const refused = runImage([]);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('PUBLIC_ORIGIN');
    expect(refused.stderr).toContain('PHONE_ENCRYPTION_KEY');
  });

  it('starts in production from its settings once migrated, and stops on SIGTERM with 0', async () => {
    const { port, opsPort } = await freePorts();
    const data = dataVolume(scratch, 'production');
    const settings = envOptions({
      ...productionSettings(),
      HOST: '127.0.0.1',
      PORT: String(port),
      OPS_PORT: String(opsPort),
    });
    const options = ['-v', `${data}:/data`, ...settings];
    // A production server never migrates: on the empty volume it names what is missing.
    const behind = runImage(options);
    expect(behind.status).toBe(1);
    expect(behind.stderr).toMatch(/lacks migrations 0001-/);
    const migrated = runImage(options, ['migrate']);
    expect(migrated.status, migrated.stderr).toBe(0);
    const name = `guquan-image-production-${port}`;
    const started = startContainer(name, options);
    expect(started.status, started.stderr).toBe(0);
    try {
      await waitFor(`http://127.0.0.1:${port}${API}/health`, 60_000);
      const ready = await waitFor(`http://127.0.0.1:${opsPort}/health/ready`, 10_000);
      expect(await ready.json()).toMatchObject({ ready: true, database: 'up' });
      const stop = podman(['stop', '-t', '30', name], 60_000);
      expect(stop.status, stop.stderr).toBe(0);
      expect(podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout).toBe('0');
      const logs = podman(['logs', name]);
      expect(logs.stdout + logs.stderr).toMatch(/"mode":"production"/);
    } finally {
      podman(['rm', '-f', name]);
    }
  });

  it('runs the migrate step, the account deletion job and the import as they are', () => {
    const data = dataVolume(scratch, 'commands');
    const demo = ['-v', `${data}:/data`, '-e', 'APP_MODE=demo', '-e', 'HOST=127.0.0.1'];
    const first = runImage(demo, ['migrate']);
    expect(first.status, first.stderr).toBe(0);
    const again = runImage(demo, ['migrate']);
    expect(again.status, again.stderr).toBe(0);
    expect(`${again.stdout}\n${again.stderr}`).toMatch(/current/i);
    const deletion = runImage(demo, ['delete-accounts']);
    expect(deletion.status, deletion.stderr).toBe(0);
    // The import needs a file of the platform's events: without one it says how it is used.
    const usage = runImage(demo, ['platform-import']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('platform:import -- FILE');
  });

  it('serves on a read-only root, writing only to its volume, and stops cleanly on SIGTERM', async () => {
    const { port, opsPort } = await freePorts();
    const data = dataVolume(scratch, 'serve');
    const name = `guquan-image-test-${port}`;
    const started = startContainer(name, [
      '-v',
      `${data}:/data`,
      ...envOptions({
        APP_MODE: 'demo',
        HOST: '127.0.0.1',
        PORT: String(port),
        OPS_PORT: String(opsPort),
      }),
    ]);
    expect(started.status, started.stderr).toBe(0);
    try {
      const origin = `http://127.0.0.1:${port}`;
      const health = await waitFor(`${origin}${API}/health`, 60_000);
      expect(await health.json()).toEqual({ status: 'ok' });
      await waitFor(`http://127.0.0.1:${opsPort}/health/ready`, 10_000);
      // The demo community arrives from the stand-in platform once the server listens.
      const share = await waitFor(
        `${origin}/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}&lang=zh-CN`,
        60_000,
      );
      expect(await share.text()).toContain('<html');
      const stopping = Date.now();
      const stop = podman(['stop', '-t', '30', name], 60_000);
      expect(stop.status, stop.stderr).toBe(0);
      const exit = podman(['inspect', '--format', '{{.State.ExitCode}}', name]);
      expect(exit.stdout).toBe('0');
      // Well within the grace period: podman would have sent SIGKILL at 30 s.
      expect(Date.now() - stopping).toBeLessThan(25_000);
      expect(podman(['logs', name]).stdout + podman(['logs', name]).stderr).toMatch(
        /shutting down/,
      );
    } finally {
      podman(['rm', '-f', name]);
    }
  });
});
