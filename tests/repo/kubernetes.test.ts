import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../apps/server/src/config/env.ts';
import { SECRET_SETTINGS } from '../../apps/server/src/config/secret-files.ts';

/**
 * The Kubernetes manifests (deploy/kubernetes; issue 38, items 4 and 5): the base and the try
 * overlay render with `kubectl kustomize`, every object they make validates against the
 * Kubernetes OpenAPI schema (kubernetes-models, whose classes are generated from it), and they
 * keep their promises: two servers or more, probed on what the server has, stopped without
 * dropping a request, non-root on a read-only root, secrets only as files of a Secret the base
 * never holds, the migration as a Job of the same image, the operators' port for Prometheus only.
 */
const ROOT = join(import.meta.dirname, '../..');
// By name at run time (an object's apiVersion), which import() through Vite would not resolve.
const require = createRequire(import.meta.url);
const BASE = join(ROOT, 'deploy/kubernetes/base');
const TRY = join(ROOT, 'deploy/kubernetes/try');

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/* The parts of the objects the promises are about (the schema checks the rest). */
interface EnvVar {
  name: string;
  value?: string;
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  tcpSocket?: { port: string | number };
}
interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  readOnlyRootFilesystem?: boolean;
  allowPrivilegeEscalation?: boolean;
  capabilities?: { drop?: string[]; add?: string[] };
  seccompProfile?: { type: string };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  args?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: EnvVar[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  startupProbe?: Probe;
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string }[];
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  securityContext?: SecurityContext;
  terminationGracePeriodSeconds?: number;
  volumes?: {
    name: string;
    emptyDir?: object;
    secret?: { secretName: string };
    configMap?: { name: string };
  }[];
}
interface Workload extends K8sObject {
  spec: { replicas?: number; template: { spec: PodSpec } };
}
interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
}
interface NetworkPolicy extends K8sObject {
  spec: {
    podSelector: { matchLabels: Record<string, string> };
    ingress?: { from?: NetworkPolicyPeer[]; ports?: { port: number }[] }[];
  };
}
interface Ingress extends K8sObject {
  metadata: K8sObject['metadata'] & { annotations?: Record<string, string> };
  spec: {
    rules: {
      host: string;
      http: { paths: { path: string; backend: { service: { name: string } } }[] };
    }[];
  };
}

/** `kubectl kustomize DIR`: the YAML it renders (throws, with kubectl's message, if it cannot). */
function render(dir: string): string {
  try {
    return execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      // On these machines kubectl comes with the machine (1.32, kustomize 5): ../shared/STACK.md.
      throw new Error('kubectl is not installed: the Kubernetes tests need it (1.27 or later)');
    }
    throw error;
  }
}

/**
 * The objects of rendered YAML, decoded by kubectl itself (offline: `label --local` with nothing
 * to change prints each object as JSON), so numbers, strings and octal read as kubectl apply reads them.
 */
function objectsOf(yaml: string): K8sObject[] {
  const json = execFileSync(
    'kubectl',
    ['label', '--local', '-f', '-', '-o', 'json', 'guquan-kubernetes-test-'],
    { input: yaml, encoding: 'utf8', env: { ...process.env, KUBECONFIG: '/dev/null' } },
  );
  // One pretty-printed object after another: each ends with a `}` alone on its line.
  return json
    .trim()
    .split(/(?<=\n\})\n(?=\{)/)
    .map((text) => JSON.parse(text) as K8sObject);
}

/**
 * What the Kubernetes OpenAPI schema finds wrong with an object (kubernetes-models' generated
 * validate()), or undefined when it validates. A kind the library does not know is a problem too.
 */
function schemaProblem(object: K8sObject): string | undefined {
  let module: Record<string, (new (data: object) => { validate(): void }) | undefined> = {};
  try {
    module = require(`kubernetes-models/${object.apiVersion}`) as typeof module;
  } catch {
    // Not a group and version the library has: no kind to find below.
  }
  const Model = module[object.kind];
  if (!Model) return `${object.apiVersion} ${object.kind}: not a kind the schema has`;
  try {
    new Model(object).validate();
    return undefined;
  } catch (error) {
    return `${object.kind} ${object.metadata.name}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const base = objectsOf(render(BASE));
const tryIt = objectsOf(render(TRY));

/** The object of this kind and name, read as the shape its kind has (T). */
function find<T extends K8sObject>(objects: K8sObject[], kind: T['kind'], name: string): T {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name}`);
  return found as T;
}

/** A generated ConfigMap by its name before kustomize's hash suffix. */
function configMap(
  objects: K8sObject[],
  name: string,
): K8sObject & { data: Record<string, string> } {
  const found = objects.find(
    (object) =>
      object.kind === 'ConfigMap' &&
      new RegExp(`^${name}(-[a-z0-9]{10})?$`).test(object.metadata.name),
  );
  if (!found) throw new Error(`no ConfigMap ${name}`);
  return found as K8sObject & { data: Record<string, string> };
}

const workloads = (objects: K8sObject[]) =>
  objects.filter((object): object is Workload => ['Deployment', 'Job'].includes(object.kind));
const site = find<Workload>(base, 'Deployment', 'guquan-web');
const siteContainer = site.spec.template.spec.containers[0] as Container;
const settings = configMap(base, 'guquan-web-settings').data;

function seconds(preStop: Container['lifecycle']): number {
  if (preStop?.preStop?.sleep) return preStop.preStop.sleep.seconds;
  const command = preStop?.preStop?.exec?.command.join(' ') ?? '';
  const timeout = /setTimeout\([^,]+,\s*(\d+)\)/.exec(command);
  if (timeout) return Number(timeout[1]) / 1000;
  const sleep = /\bsleep (\d+)/.exec(command);
  return sleep ? Number(sleep[1]) : 0;
}

describe('the Kubernetes manifests', () => {
  it('render with kubectl kustomize: the base, and the try overlay with PostgreSQL and Redis', () => {
    const kinds = (objects: K8sObject[]) =>
      [...new Set(objects.map((object) => object.kind))].sort();
    expect(kinds(base)).toEqual([
      'ConfigMap',
      'Deployment',
      'HorizontalPodAutoscaler',
      'Ingress',
      'Job',
      'Namespace',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
    ]);
    expect(kinds(tryIt)).toEqual([...kinds(base), 'Secret'].sort());
    const image = (name: string) =>
      find<Workload>(tryIt, 'Deployment', name).spec.template.spec.containers[0]?.image;
    expect(image('postgres')).toBe('postgres:15');
    expect(image('redis')).toBe('redis:7');
    for (const object of [...base, ...tryIt])
      expect(object.metadata.namespace ?? 'guquan').toBe('guquan');
  });

  it('validate, every object, against the Kubernetes OpenAPI schema', () => {
    const problems = [...base, ...tryIt].map(schemaProblem);
    expect(problems.filter(Boolean)).toEqual([]);
    expect(base.length + tryIt.length).toBeGreaterThan(30);
  });

  it('fail that validation with an object the schema refuses', () => {
    const broken = structuredClone(site) as unknown as {
      spec: { selector?: unknown; template: { spec: { containers: { ports: unknown[] }[] } } };
    };
    delete broken.spec.selector;
    expect(schemaProblem(broken as unknown as K8sObject)).toMatch(/selector/);
    const badPort = structuredClone(site) as unknown as typeof broken;
    (badPort.spec.template.spec.containers[0] as { ports: unknown[] }).ports = [
      { containerPort: 'eighty' },
    ];
    expect(schemaProblem(badPort as unknown as K8sObject)).toMatch(/containerPort must be integer/);
    expect(
      schemaProblem({ apiVersion: 'apps/v1', kind: 'Deployer', metadata: { name: 'x' } }),
    ).toMatch(/not a kind/);
    // And a file that is not a manifest is refused by kubectl itself.
    expect(() => objectsOf('kind: [')).toThrow();
  });

  it('are made from deploy/ where they repeat it (nginx.conf, the alert rules), and current', () => {
    const check = spawnSync(
      process.execPath,
      [join(ROOT, 'scripts/kubernetes-files.mjs'), '--check'],
      {
        encoding: 'utf8',
      },
    );
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('the servers (deploy/kubernetes/base/site.yaml)', () => {
  it('are 2 or more, spread over the nodes, replaced one by one without fewer serving', () => {
    expect(site.spec.replicas).toBeGreaterThanOrEqual(2);
    const hpa = find<
      K8sObject & { spec: { minReplicas: number; scaleTargetRef: { name: string } } }
    >(base, 'HorizontalPodAutoscaler', 'guquan-web');
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.spec.scaleTargetRef.name).toBe('guquan-web');
    const pdb = find<K8sObject & { spec: { minAvailable: number } }>(
      base,
      'PodDisruptionBudget',
      'guquan-web',
    );
    expect(pdb.spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(site.spec).toMatchObject({ strategy: { rollingUpdate: { maxUnavailable: 0 } } });
  });

  it('are probed on the operators’ listener: started and alive on /health/live, ready on /health/ready', () => {
    const ops = siteContainer.ports?.find((port) => port.name === 'ops');
    expect(ops?.containerPort).toBe(Number(settings.OPS_PORT));
    expect(siteContainer.startupProbe?.httpGet).toEqual({ path: '/health/live', port: 'ops' });
    expect(siteContainer.livenessProbe?.httpGet).toEqual({ path: '/health/live', port: 'ops' });
    expect(siteContainer.readinessProbe?.httpGet).toEqual({ path: '/health/ready', port: 'ops' });
    expect(settings.OPS_HOST).toBe('0.0.0.0');
  });

  it('pause before SIGTERM, without a shell, and have the time to finish after it', () => {
    const pause = seconds(siteContainer.lifecycle);
    expect(pause).toBeGreaterThanOrEqual(5);
    expect(siteContainer.lifecycle?.preStop?.exec?.command[0]).toBe('node');
    // The server's own shutdown gives itself 10 s (apps/server/src/server.ts).
    const serverGrace = Number(
      /SHUTDOWN_GRACE_MS = ([\d_]+)/
        .exec(readFileSync(join(ROOT, 'apps/server/src/server.ts'), 'utf8'))?.[1]
        ?.replace(/_/g, ''),
    );
    expect(site.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      pause + serverGrace / 1000,
    );
    const nginx = find<Workload>(base, 'Deployment', 'guquan-web-nginx').spec.template.spec;
    expect(seconds(nginx.containers[0]?.lifecycle)).toBeGreaterThanOrEqual(5);
    expect(nginx.containers[0]?.lifecycle?.preStop?.exec?.command.join(' ')).toContain('-s quit');
  });

  it('ask for resources and are held to limits', () => {
    for (const workload of workloads(base)) {
      const spec = workload.spec.template.spec;
      for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
        expect(
          container.resources?.requests,
          `${workload.metadata.name}/${container.name}`,
        ).toMatchObject({
          cpu: expect.any(String) as string,
          memory: expect.any(String) as string,
        });
        expect(
          container.resources?.limits?.memory,
          `${workload.metadata.name}/${container.name}`,
        ).toBeTruthy();
      }
    }
  });

  it('run, every pod of the base, as non-root on a read-only root, with no capabilities', () => {
    const all = workloads(base);
    expect(all.map((workload) => workload.metadata.name).sort()).toEqual([
      'guquan-web',
      'guquan-web-migrate',
      'guquan-web-nginx',
    ]);
    for (const workload of all) {
      const spec = workload.spec.template.spec;
      expect(spec.securityContext, workload.metadata.name).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(spec.securityContext?.runAsUser).toBeGreaterThan(0);
      for (const container of [...spec.containers, ...(spec.initContainers ?? [])]) {
        expect(container.securityContext, `${workload.metadata.name}/${container.name}`).toEqual({
          runAsNonRoot: true,
          runAsUser: spec.securityContext?.runAsUser,
          runAsGroup: expect.any(Number) as number,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
      }
    }
  });

  it('write only to emptyDirs: the media folders (each server’s own) and /tmp', () => {
    const volumes = new Map(
      site.spec.template.spec.volumes?.map((volume) => [volume.name, volume]),
    );
    const writable = (siteContainer.volumeMounts ?? [])
      .filter((mount) => volumes.get(mount.name)?.emptyDir)
      .map((mount) => mount.mountPath)
      .sort();
    expect(writable).toEqual([settings.MEDIA_CACHE_DIR, settings.MEDIA_DIR, '/tmp'].sort());
    expect(settings.MEDIA_DIR).not.toBe(settings.MEDIA_CACHE_DIR);
  });

  it('read their secrets as files of the Secret (X_FILE), never from the ConfigMap or a value', () => {
    const secrets = new Set<string>(SECRET_SETTINGS);
    const mount = siteContainer.volumeMounts?.find((candidate) => candidate.name === 'secrets');
    const volume = site.spec.template.spec.volumes?.find(
      (candidate) => candidate.name === 'secrets',
    );
    expect(volume?.secret?.secretName).toBe('guquan-web-secrets');
    const files = (siteContainer.env ?? []).filter((variable) => variable.name.endsWith('_FILE'));
    expect(files.map((variable) => variable.name.replace(/_FILE$/, ''))).toEqual(
      expect.arrayContaining(['DATABASE_URL', 'PHONE_ENCRYPTION_KEY', 'PLATFORM_WEBHOOK_SECRETS']),
    );
    for (const variable of files) {
      const name = variable.name.replace(/_FILE$/, '');
      expect(secrets.has(name), name).toBe(true);
      expect(variable.value).toBe(`${mount?.mountPath ?? '?'}/${name}`);
    }
    for (const workload of workloads(base)) {
      for (const container of workload.spec.template.spec.containers) {
        for (const variable of container.env ?? [])
          expect(secrets.has(variable.name), variable.name).toBe(false);
      }
    }
    expect(Object.keys(settings).filter((name) => secrets.has(name))).toEqual([]);
  });
});

describe('the base holds no secret', () => {
  it('makes no Secret; secret.example.yaml, left out of it, names every key with a placeholder', () => {
    expect(base.filter((object) => object.kind === 'Secret')).toEqual([]);
    const kustomization = readFileSync(join(BASE, 'kustomization.yaml'), 'utf8');
    expect(kustomization).not.toMatch(/^\s*-\s*secret\.example\.yaml/m);
    expect(kustomization).not.toContain('secretGenerator');
    const [example] = objectsOf(readFileSync(join(BASE, 'secret.example.yaml'), 'utf8'));
    const values = (example as K8sObject & { stringData: Record<string, string> }).stringData;
    const keys = (siteContainer.env ?? [])
      .filter((variable) => variable.name.endsWith('_FILE'))
      .map((variable) => variable.name.replace(/_FILE$/, ''));
    expect(Object.keys(values).sort()).toEqual(keys.sort());
    for (const [key, value] of Object.entries(values)) expect(value, key).toContain('CHANGE-ME');
  });

  it('nor anything shaped like one in its files', () => {
    const rendered = render(BASE);
    expect(rendered).not.toMatch(/whsec_(?!CHANGE)[A-Za-z0-9+/=]{8,}/);
    expect(rendered).not.toMatch(/postgres(ql)?:\/\/[^:\s]+:[^@\s]+@/);
    expect(rendered).not.toMatch(/-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  });
});

describe('the migration Job (deploy/kubernetes/base/migrate-job.yaml)', () => {
  it('runs the image’s migrate command, with the servers’ image, settings and secrets', () => {
    const job = find<Workload>(base, 'Job', 'guquan-web-migrate');
    const migrate = job.spec.template.spec.containers[0] as Container;
    expect(migrate.args).toEqual(['migrate']);
    expect(migrate.command).toBeUndefined();
    expect(migrate.image).toBe(siteContainer.image);
    expect(migrate.envFrom).toEqual(siteContainer.envFrom);
    expect(migrate.env).toEqual(siteContainer.env);
    expect(job.spec.template.spec).toMatchObject({ restartPolicy: 'Never' });
  });

  it('is applied first with the settings it reads, by one label (docs/operations.md)', () => {
    const first = base.filter((object) =>
      ['settings', 'migrate'].includes(
        object.metadata.labels?.['app.kubernetes.io/component'] ?? '',
      ),
    );
    expect(first.map((object) => object.kind).sort()).toEqual(['ConfigMap', 'Job']);
    expect(first.find((object) => object.kind === 'ConfigMap')?.metadata.name).toMatch(
      /^guquan-web-settings-/,
    );
  });
});

describe('who reaches what (deploy/kubernetes/base/network-policies.yaml)', () => {
  const policy = find<NetworkPolicy>(base, 'NetworkPolicy', 'guquan-web');

  it('lets only Prometheus reach the operators’ port, and only nginx the site’s', () => {
    expect(policy.spec.podSelector.matchLabels).toEqual({
      'app.kubernetes.io/name': 'guquan-web',
      'app.kubernetes.io/component': 'site',
    });
    expect(policy.spec).toMatchObject({ policyTypes: ['Ingress'] });
    const rules = policy.spec.ingress ?? [];
    const reaching = (port: number) =>
      rules.filter((rule) => rule.ports?.some((p) => p.port === port));
    const [ops, ...otherOps] = reaching(Number(settings.OPS_PORT));
    expect(otherOps).toEqual([]);
    expect(ops?.from).toEqual([
      {
        namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } },
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'prometheus' } },
      },
    ]);
    const [web, ...otherWeb] = reaching(Number(settings.PORT));
    expect(otherWeb).toEqual([]);
    expect(web?.from).toEqual([
      {
        podSelector: {
          matchLabels: {
            'app.kubernetes.io/name': 'guquan-web-nginx',
            'app.kubernetes.io/component': 'proxy',
          },
        },
      },
    ]);
    // Every rule names its peers and its ports: none lets anything in on any port.
    for (const rule of rules) {
      expect(rule.from?.length).toBeGreaterThan(0);
      expect(rule.ports?.length).toBeGreaterThan(0);
    }
  });
});

describe('nginx in front, behind the Ingress (docs/decisions/0030-nginx-stays-in-front-in-kubernetes.md)', () => {
  const conf = configMap(base, 'guquan-web-nginx').data['nginx.conf'] ?? '';

  it('gets both host names from the Ingress, the link domain’s /.well-known/ untouched', () => {
    const ingresses = base.filter((object): object is Ingress => object.kind === 'Ingress');
    const hosts = ingresses
      .flatMap((ingress) => ingress.spec.rules.map((rule) => rule.host))
      .sort();
    expect(hosts).toEqual(
      [
        new URL(settings.LINK_ORIGIN ?? '').hostname,
        new URL(settings.PUBLIC_ORIGIN ?? '').hostname,
      ].sort(),
    );
    for (const ingress of ingresses) {
      expect(ingress.metadata.annotations ?? {}).toEqual({});
      for (const rule of ingress.spec.rules) {
        for (const path of rule.http.paths)
          expect(path.backend.service.name).toBe('guquan-web-nginx');
      }
    }
    const link = ingresses
      .flatMap((ingress) => ingress.spec.rules)
      .find((rule) => rule.host === new URL(settings.LINK_ORIGIN ?? '').hostname);
    expect(link?.http.paths.map((path) => path.path)).toContain('/.well-known/');
  });

  it('is deploy/nginx.conf.template for the cluster: the servers’ pods by DNS, the link host, the web files', () => {
    expect(conf).toContain(`server_name ${new URL(settings.LINK_ORIGIN ?? '').hostname};`);
    expect(conf).toMatch(/server guquan-web-pods\.guquan\.svc\.cluster\.local:8080 resolve /);
    find(base, 'Service', 'guquan-web-pods');
    expect(
      find<K8sObject & { spec: { clusterIP: string } }>(base, 'Service', 'guquan-web-pods').spec
        .clusterIP,
    ).toBe('None');
    for (const promise of [
      'proxy_cache_path',
      'proxy_next_upstream error timeout http_502 http_503',
      'immutable',
      '/_unavailable/503.html',
    ]) {
      expect(conf).toContain(promise);
    }
    expect(conf).not.toMatch(/@[A-Z_]+@/);
    const nginx = find<Workload>(base, 'Deployment', 'guquan-web-nginx').spec.template.spec;
    expect(nginx.initContainers?.[0]?.image).toBe(siteContainer.image);
    expect(nginx.containers[0]?.image).toMatch(/nginx:1\.(2[89]|[3-9]\d)/);
  });

  // nginx is on the machines that run the cluster tests; Debian's (1.22) predates the upstream
  // `resolve` of 1.27.3, so it checks the rest of the file with that word and the DNS names out.
  it.skipIf(spawnSync('nginx', ['-v']).error !== undefined)(
    'is a configuration nginx -t accepts',
    () => {
      const dir = mkdtempSync(join(tmpdir(), 'guquan-k8s-nginx-'));
      try {
        for (const folder of ['assets', 'errors']) mkdirSync(join(dir, folder));
        const local = conf
          .replace(' resolve ', ' ')
          .replaceAll(/[\w.-]+\.svc\.cluster\.local/g, '127.0.0.1')
          .replaceAll('/run/nginx', dir)
          .replaceAll('/srv/guquan', dir)
          .replaceAll('/var/cache/nginx', dir);
        writeFileSync(join(dir, 'nginx.conf'), local);
        const check = spawnSync('nginx', ['-t', '-p', dir, '-c', join(dir, 'nginx.conf')], {
          encoding: 'utf8',
        });
        expect(check.stderr).toContain('test is successful');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('has Prometheus scrape the servers’ ops port, found by Kubernetes, with the alert rules', () => {
    const prometheus = configMap(base, 'guquan-web-prometheus').data;
    expect(prometheus['prometheus.yml']).toContain('job_name: guquan-web');
    expect(prometheus['prometheus.yml']).toMatch(/kubernetes_sd_configs:\s+- role: pod/);
    expect(prometheus['prometheus.yml']).toMatch(
      /__meta_kubernetes_pod_container_port_name\]\s+regex: ops\s+action: keep/,
    );
    expect(prometheus['alerts.yml']).toContain(
      readFileSync(join(ROOT, 'deploy/alerts.yml'), 'utf8'),
    );
  });
});

describe('the try overlay (deploy/kubernetes/try)', () => {
  it('gives the servers settings and secrets a production server starts with', () => {
    const trySite = find<Workload>(tryIt, 'Deployment', 'guquan-web').spec.template.spec
      .containers[0] as Container;
    const env: Record<string, string> = { ...configMap(tryIt, 'guquan-web-settings').data };
    for (const variable of trySite.env ?? []) env[variable.name] = variable.value ?? '';
    const secret = find<K8sObject & { data: Record<string, string> }>(
      tryIt,
      'Secret',
      'guquan-web-secrets',
    );
    const files = new Map(
      Object.entries(secret.data).map(([key, value]) => [
        `/run/secrets/guquan/${key}`,
        Buffer.from(value, 'base64').toString('utf8'),
      ]),
    );
    const read = (path: string) => {
      const content = files.get(path);
      if (content === undefined) throw new Error(`no file ${path}`);
      return content;
    };
    const config = loadConfig(env, { webDistDir: '/app/apps/web/dist', dataDir: '/data' }, read);
    expect(config.mode).toBe('production');
    expect(config.database).toMatchObject({ engine: 'postgres' });
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.mediaDir).toBe('/data/media');
  });
});
