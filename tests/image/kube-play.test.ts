import { spawnSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import {
  startStandInPlatform,
  type StandInPlatform,
} from '../../apps/server/src/stand-in/stand-in-platform.ts';
import { freePort } from '../support/postgres-server.ts';
import { API, IMAGE, podman, ROOT, sleep, waitFor } from './podman.ts';
import { ensureTryServiceImages, TRY_POSTGRES_IMAGE, TRY_REDIS_IMAGE } from './try-services.ts';

/**
 * The try overlay (deploy/kubernetes/try) run for real with `podman kube play` (issue 38, item
 * 5): its PostgreSQL and Redis, the migration Job, and two site pods, from the image built here.
 * podman runs Pods and ConfigMaps on the host's network only (no port mappings, no Services), so
 * the rendered overlay is changed where podman needs it, and only there:
 * - each pod of a Deployment or Job becomes a Pod of its own, on ports of its own (in its copy of
 *   the settings ConfigMap: podman 4.3 lets `envFrom` win over `env`); ports and probes (which
 *   name ports) are dropped; the settings point at loopback and at the platform the tests play;
 * - the site's Secret holds the loopback addresses and that platform's secrets, and is mounted as
 *   a folder of its keys, as Kubernetes mounts it (podman 4.3 panics on secret volumes);
 * - the official postgres:15 and redis:7 are stand-ins made from Debian 12's own packages
 *   (try-services.ts).
 * Everything else is the overlay's own: the settings, the secrets as files, the users, the
 * read-only roots, the emptyDir volumes, the migrate command.
 */
type Manifest = Record<string, unknown> & {
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
};
type PodSpec = Record<string, unknown> & {
  containers: Container[];
  restartPolicy?: string;
  volumes?: (Record<string, unknown> & { name: string; secret?: { secretName: string } })[];
};
type Container = Record<string, unknown> & {
  name: string;
  image: string;
  env?: { name: string; value: string }[];
  args?: string[];
};

/** The site's user in the image and the Deployment (runAsUser). */
const SITE_UID = 1000;
const scratch = mkdtempSync(join(tmpdir(), 'guquan-kube-play-'));
const files: string[] = [];
const secrets = new Set<string>();
let platform: StandInPlatform | undefined;
let rendered: Manifest[] = [];
const ports = { postgres: 0, redis: 0, siteA: 0, opsA: 0, siteB: 0, opsB: 0 };

function render(): Manifest[] {
  const run = spawnSync('kubectl', ['kustomize', join(ROOT, 'deploy/kubernetes/try')], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return parseAllDocuments(run.stdout).map((document) => document.toJS() as Manifest);
}

function find(kind: string, name: string): Manifest {
  const found = rendered.find(
    (object) =>
      object.kind === kind &&
      (object.metadata.name === name || object.metadata.name.startsWith(`${name}-`)),
  );
  if (!found) throw new Error(`no ${kind} ${name} in the overlay`);
  return structuredClone(found);
}

function templateOf(object: Manifest): PodSpec {
  const spec = object.spec as { template: { spec: PodSpec } };
  return spec.template.spec;
}

/** A Pod of `spec` (a Deployment's or Job's template), as podman runs it on the host's network. */
function podOf(name: string, spec: PodSpec, change: (container: Container) => void): Manifest {
  const pod = structuredClone(spec);
  pod.volumes = (pod.volumes ?? []).map((volume) =>
    volume.secret
      ? {
          name: volume.name,
          hostPath: { path: secretFolder(volume.secret.secretName), type: 'Directory' },
        }
      : volume,
  );
  for (const container of pod.containers) {
    delete container.ports;
    delete container.startupProbe;
    delete container.readinessProbe;
    delete container.livenessProbe;
    change(container);
  }
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: pod };
}

function withEnv(container: Container, env: Record<string, string>): void {
  const others = (container.env ?? []).filter((entry) => !(entry.name in env));
  container.env = [...others, ...Object.entries(env).map(([name, value]) => ({ name, value }))];
}

/**
 * A Secret's keys as files in a folder, as Kubernetes mounts a secret volume (each key a file,
 * readable by the pod's user only). podman 4.3 cannot mount one (its VolumeFromSecret dereferences
 * a nil pointer), so the folder is mounted in its place.
 */
function secretFolder(secretName: string): string {
  const secret = secretName === 'guquan-web-secrets' ? siteSecret() : find('Secret', secretName);
  const folder = join(scratch, `secret-${secretName}`);
  mkdirSync(folder, { recursive: true });
  chownSync(folder, SITE_UID, SITE_UID);
  for (const [key, value] of Object.entries(secret.data as Record<string, string>)) {
    const file = join(folder, key);
    writeFileSync(file, Buffer.from(value, 'base64'), { mode: 0o440 });
    chownSync(file, SITE_UID, SITE_UID);
  }
  return folder;
}

/** The site's Secret, its values those of this machine: loopback, and the tests' platform. */
function siteSecret(): Manifest {
  const secret = find('Secret', 'guquan-web-secrets');
  const data = secret.data as Record<string, string>;
  const decoded = (key: string) => Buffer.from(data[key] ?? '', 'base64').toString('utf8');
  const values = {
    DATABASE_URL: decoded('DATABASE_URL').replace(
      '@postgres:5432/',
      `@127.0.0.1:${ports.postgres}/`,
    ),
    REDIS_URL: `redis://127.0.0.1:${ports.redis}`,
    PLATFORM_WEBHOOK_SECRETS: platform?.env.PLATFORM_WEBHOOK_SECRETS ?? '',
    PLATFORM_API_TOKEN: platform?.env.PLATFORM_API_TOKEN ?? '',
    PLATFORM_EVENTS_SECRET: platform?.env.PLATFORM_EVENTS_SECRET ?? '',
  };
  for (const [key, value] of Object.entries(values)) {
    data[key] = Buffer.from(value).toString('base64');
  }
  return secret;
}

/** The site's settings that differ here: its ports, loopback, the platform's addresses. */
function siteEnv(port: number, opsPort: number): Record<string, string> {
  const env = platform?.env ?? {};
  return {
    HOST: '127.0.0.1',
    PORT: String(port),
    OPS_HOST: '127.0.0.1',
    OPS_PORT: String(opsPort),
    PLATFORM_ISSUER: env.PLATFORM_ISSUER ?? '',
    PLATFORM_JWKS_URL: env.PLATFORM_JWKS_URL ?? '',
    PLATFORM_MEDIA_ORIGINS: env.PLATFORM_MEDIA_ORIGINS ?? '',
    PLATFORM_API_URL: env.PLATFORM_API_URL ?? '',
    PLATFORM_EVENTS_URL: env.PLATFORM_EVENTS_URL ?? '',
  };
}

/**
 * The site's ConfigMap with this pod's settings in it (podman 4.3 lets `envFrom` win over a
 * container's own `env`, the other way round from Kubernetes): each pod's play file has its own.
 */
function siteSettings(port: number, opsPort: number): Manifest {
  const settings = find('ConfigMap', 'guquan-web-settings');
  settings.data = { ...(settings.data as Record<string, string>), ...siteEnv(port, opsPort) };
  return settings;
}

function siteContainer(container: Container): void {
  container.image = IMAGE;
}

/**
 * Plays `objects` with `podman kube play`. Their Secrets are made first, as podman secrets holding
 * the Secret's `data` as JSON, the form podman 4.3 reads for `envFrom` (a Secret it plays from
 * YAML it keeps as YAML, then refuses: "not valid JSON").
 */
function play(name: string, objects: Manifest[]) {
  for (const object of objects) {
    // What an earlier run that did not end may have left with these names.
    if (object.kind === 'Pod') podman(['pod', 'rm', '-f', object.metadata.name]);
    if (object.kind === 'Secret') {
      podman(['secret', 'rm', object.metadata.name]);
      const secretFile = join(scratch, `${object.metadata.name}.secret.json`);
      writeFileSync(secretFile, JSON.stringify(object.data), { mode: 0o600 });
      const made = podman(['secret', 'create', object.metadata.name, secretFile]);
      secrets.add(object.metadata.name);
      if (made.status !== 0) throw new Error(made.stderr);
    }
  }
  const file = join(scratch, `${name}.yaml`);
  const played = objects.filter((object) => object.kind !== 'Secret');
  writeFileSync(file, played.map((object) => JSON.stringify(object)).join('\n---\n'));
  files.push(file);
  return podman(['kube', 'play', '--network', 'host', file], 300_000);
}

function down(name: string) {
  return podman(['kube', 'down', join(scratch, `${name}.yaml`)], 120_000);
}

/** The exit code of a pod's one container once it has ended, and what it wrote. */
function ended(pod: string, container: string) {
  const name = `${pod}-${container}`;
  podman(['wait', name], 300_000);
  const logs = podman(['logs', name]);
  return {
    code: podman(['inspect', '--format', '{{.State.ExitCode}}', name]).stdout,
    output: `${logs.stdout}\n${logs.stderr}`,
  };
}

async function postgresAnswers(): Promise<void> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const client = new pg.Client({
      host: '127.0.0.1',
      port: ports.postgres,
      user: 'guquan',
      password: 'try-it-out',
      database: 'guquan',
    });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        const logs = podman(['logs', 'postgres-postgres']);
        throw new Error(`PostgreSQL's pod did not answer: ${logs.stdout}\n${logs.stderr}`, {
          cause: error,
        });
      }
      await sleep(500);
    }
  }
}

async function appliedMigrations(): Promise<string[]> {
  const client = new pg.Client({
    connectionString: `postgres://guquan:try-it-out@127.0.0.1:${ports.postgres}/guquan`,
  });
  await client.connect();
  try {
    const result = await client.query<{ name: string; timestamp: string }>(
      'select name, timestamp from kysely_migration order by name',
    );
    return result.rows.map((row) => `${row.name} ${row.timestamp}`);
  } finally {
    await client.end();
  }
}

function migrateJob(): Manifest[] {
  const job = find('Job', 'guquan-web-migrate');
  return [
    siteSettings(ports.siteA, ports.opsA),
    podOf('guquan-web-migrate', { ...templateOf(job), restartPolicy: 'Never' }, siteContainer),
  ];
}

function sitePod(
  name: string,
  port: number,
  opsPort: number,
  restartPolicy = 'Always',
): Manifest[] {
  const template = { ...templateOf(find('Deployment', 'guquan-web')), restartPolicy };
  return [siteSettings(port, opsPort), podOf(name, template, siteContainer)];
}

/** Waits for a site pod's readiness, or fails with what its server wrote. */
async function ready(pod: string, opsPort: number): Promise<void> {
  try {
    await waitFor(`http://127.0.0.1:${opsPort}/health/ready`, 120_000);
  } catch (error) {
    const logs = podman(['logs', `${pod}-site`]);
    throw new Error(`${pod} was not ready:\n${logs.stdout}\n${logs.stderr}`, { cause: error });
  }
}

beforeAll(async () => {
  ensureTryServiceImages();
  rendered = render();
  for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await freePort();
  platform = await startStandInPlatform({ dataDir: join(scratch, 'platform'), imageScale: 0.25 });
  const services = play('services', [
    find('Secret', 'postgres'),
    podOf('postgres', templateOf(find('Deployment', 'postgres')), (container) => {
      container.image = TRY_POSTGRES_IMAGE;
      withEnv(container, { PGPORT: String(ports.postgres) });
    }),
    podOf('redis', templateOf(find('Deployment', 'redis')), (container) => {
      container.image = TRY_REDIS_IMAGE;
      container.args = [
        ...(container.args ?? []),
        '--port',
        String(ports.redis),
        '--bind',
        '127.0.0.1',
      ];
    }),
  ]);
  expect(services.status, services.stderr).toBe(0);
  await postgresAnswers();
}, 1_200_000);

afterAll(async () => {
  for (const file of files.reverse()) podman(['kube', 'down', file], 120_000);
  for (const secret of secrets) podman(['secret', 'rm', secret]);
  await platform?.close();
  rmSync(scratch, { recursive: true, force: true });
});

describe('the try overlay under podman kube play', () => {
  it('a site pod on a database not migrated yet refuses to start, naming what is missing', () => {
    // Never restarted, so that its one start is looked at (a Deployment's would be, again).
    const played = play('too-early', sitePod('guquan-web-early', ports.siteA, ports.opsA, 'Never'));
    expect(played.status, played.stderr).toBe(0);
    const { code, output } = ended('guquan-web-early', 'site');
    expect(code).toBe('1');
    expect(output).toMatch(/lacks migrations 0001-/);
    expect(down('too-early').status).toBe(0);
  });

  it('the migration Job migrates, and run again changes nothing', async () => {
    const first = play('migrate', migrateJob());
    expect(first.status, first.stderr).toBe(0);
    expect(ended('guquan-web-migrate', 'migrate').code).toBe('0');
    const applied = await appliedMigrations();
    expect(applied.length).toBeGreaterThan(20);
    expect(down('migrate').status).toBe(0);

    const again = play('migrate', migrateJob());
    expect(again.status, again.stderr).toBe(0);
    const rerun = ended('guquan-web-migrate', 'migrate');
    expect(rerun.code).toBe('0');
    expect(rerun.output).toMatch(/current/i);
    expect(await appliedMigrations()).toEqual(applied);
    expect(down('migrate').status).toBe(0);
  });

  it('two site pods answer, each on its own; one killed, the other goes on', async () => {
    const a = play('site-a', sitePod('guquan-web-a', ports.siteA, ports.opsA));
    expect(a.status, a.stderr).toBe(0);
    const b = play('site-b', sitePod('guquan-web-b', ports.siteB, ports.opsB));
    expect(b.status, b.stderr).toBe(0);
    for (const [pod, port, ops] of [
      ['guquan-web-a', ports.siteA, ports.opsA],
      ['guquan-web-b', ports.siteB, ports.opsB],
    ] as const) {
      await ready(pod, ops);
      const website = await waitFor(`http://127.0.0.1:${port}/anime_merch_web/website`, 30_000);
      expect(await website.text()).toContain('<html');
    }
    // As the Deployment says: not root, and nothing written outside its volumes.
    expect(podman(['exec', 'guquan-web-b-site', 'id', '-u']).stdout).toBe('1000');
    const write = podman(['exec', 'guquan-web-b-site', 'touch', '/app/written']);
    expect(write.status).not.toBe(0);
    expect(write.stderr).toMatch(/read-only/i);

    expect(podman(['pod', 'kill', 'guquan-web-a']).status).toBe(0);
    await expect(fetch(`http://127.0.0.1:${ports.siteA}${API}/health`)).rejects.toThrow();
    const other = await fetch(`http://127.0.0.1:${ports.siteB}${API}/health`);
    expect(other.status).toBe(200);
  });
});
