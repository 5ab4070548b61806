// `npm run image`: builds the site's OCI image from the Containerfile with Debian's podman, as
// localhost/guquan-web:latest and :<version> (apps/server/package.json's, the version the server
// reports). The base is BASE_IMAGE when given; else the official Node image when podman has it or
// can pull it; else (no registry answers, as on these machines) a local base built from Debian 13's
// own packages (debootstrap minbase + nodejs 20.19 + ca-certificates, `podman import`), kept in
// podman's storage and built again only when missing. `--base-only` stops after the base.
// podman's settings: deploy/podman/containers.conf (CONTAINERS_CONF), see docs/operations.md.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const IMAGE = 'localhost/guquan-web';
/** The Containerfile's default BASE_IMAGE: what a real deployment pulls. */
export const OFFICIAL_BASE = 'docker.io/library/node:20-bookworm-slim';
/** The base built here from Debian 13's packages when no registry answers. */
export const LOCAL_BASE = 'localhost/guquan-node-base:20-trixie';
const DEBIAN_MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';

/** The environment podman runs with: the project's containers.conf. */
export function podmanEnv(env = process.env) {
  return {
    ...env,
    CONTAINERS_CONF: env.CONTAINERS_CONF ?? join(ROOT, 'deploy/podman/containers.conf'),
  };
}

/** The version the image is tagged with: the server's (the one it logs when it starts). */
export function imageVersion() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'apps/server/package.json'), 'utf8'));
  return pkg.version;
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    encoding: 'utf8',
    env: podmanEnv(),
    ...options,
  });
  if (result.error) throw result.error;
  return result;
}

function must(command, args, options) {
  const result = run(command, args, options);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status})`);
  }
  return result;
}

function imageExists(name) {
  return run('podman', ['image', 'exists', name], { capture: true }).status === 0;
}

function git(args) {
  const result = run('git', ['-C', ROOT, ...args], { capture: true });
  return result.status === 0 ? result.stdout.trim() : '';
}

/** Debian 13 minbase with its nodejs (20.19.2) and ca-certificates, imported into podman. */
function buildLocalBase() {
  const started = Date.now();
  const dir = mkdtempSync(join(process.env.TMPDIR ?? tmpdir(), 'guquan-base-'));
  try {
    console.log(`Building the base ${LOCAL_BASE} from Debian 13 (trixie) in ${dir}`);
    must('debootstrap', ['--variant=minbase', 'trixie', dir, DEBIAN_MIRROR], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    must('chroot', [dir, 'apt-get', 'update', '-qq'], { env: aptEnv });
    must(
      'chroot',
      [
        dir,
        'apt-get',
        'install',
        '-y',
        '-qq',
        '--no-install-recommends',
        'nodejs',
        'ca-certificates',
      ],
      { env: aptEnv },
    );
    must('chroot', [dir, 'apt-get', 'clean']);
    for (const leftover of ['var/lib/apt/lists', 'var/cache/apt', 'var/log', 'tmp']) {
      rmSync(join(dir, leftover), { recursive: true, force: true });
    }
    must('mkdir', ['-p', join(dir, 'var/lib/apt/lists/partial'), join(dir, 'var/log')]);
    must('mkdir', ['-m', '1777', join(dir, 'tmp')]);
    const tar = `tar --numeric-owner -C '${dir}' -c . | podman import --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'CMD ["node"]' - ${LOCAL_BASE}`;
    must('sh', ['-c', tar], { stdio: ['ignore', 'ignore', 'inherit'] });
    console.log(`Base ${LOCAL_BASE} built in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The base to build on, and how it was found. */
export function chooseBase(env = process.env) {
  if (env.BASE_IMAGE) return { base: env.BASE_IMAGE, how: 'BASE_IMAGE' };
  if (imageExists(OFFICIAL_BASE)) return { base: OFFICIAL_BASE, how: 'official, in storage' };
  if (imageExists(LOCAL_BASE)) return { base: LOCAL_BASE, how: 'local, in storage' };
  if (run('podman', ['pull', '-q', OFFICIAL_BASE], { capture: true }).status === 0) {
    return { base: OFFICIAL_BASE, how: 'official, pulled' };
  }
  console.log(`No registry answers for ${OFFICIAL_BASE}: building a local base.`);
  buildLocalBase();
  return { base: LOCAL_BASE, how: 'local, built now' };
}

/** Builds localhost/guquan-web:latest and :<version>; returns the base and the time taken. */
export function buildImage({ baseOnly = false } = {}) {
  const started = Date.now();
  const { base, how } = chooseBase();
  console.log(`Base image: ${base} (${how})`);
  if (baseOnly) return { base };
  const version = imageVersion();
  const dirty = git(['status', '--porcelain']) !== '';
  const revision = `${git(['rev-parse', 'HEAD']) || 'unknown'}${dirty ? '-dirty' : ''}`;
  const source =
    process.env.IMAGE_SOURCE || git(['remote', 'get-url', 'origin']) || 'unknown (no git remote)';
  // The CA bundle this host trusts (a TLS-inspecting proxy's CA, as on these machines), lent to
  // the build stage's npm as a build secret: it is in no layer of the image.
  const ca = process.env.BUILD_CA_FILE ?? process.env.NODE_EXTRA_CA_CERTS;
  const secret = ca && existsSync(ca) ? ['--secret', `id=build-ca,src=${ca}`] : [];
  must(
    'podman',
    [
      'build',
      ...secret,
      '--isolation',
      'chroot',
      '--network',
      'host',
      '--layers',
      '-f',
      'Containerfile',
      '--build-arg',
      `BASE_IMAGE=${base}`,
      '--build-arg',
      `VERSION=${version}`,
      '--build-arg',
      `REVISION=${revision}`,
      '--build-arg',
      `SOURCE=${source}`,
      '-t',
      `${IMAGE}:latest`,
      '-t',
      `${IMAGE}:${version}`,
      '.',
    ],
    { cwd: ROOT },
  );
  const size = Number(
    must('podman', ['image', 'inspect', '--format', '{{.Size}}', `${IMAGE}:latest`], {
      capture: true,
    }).stdout.trim(),
  );
  const seconds = Math.round((Date.now() - started) / 1000);
  console.log(
    `Built ${IMAGE}:latest and :${version} (revision ${revision}) in ${seconds} s: ${(size / 1e6).toFixed(0)} MB`,
  );
  return { base, version, revision, size, seconds };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    buildImage({ baseOnly: process.argv.includes('--base-only') });
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
