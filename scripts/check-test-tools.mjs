// npm test's first step: the programs the tests need besides Node, checked in a moment, so a
// machine without one stops at once rather than minutes in (after lint, types, build and unit
// tests). As root with apt-get (CI's fresh machine, `.ci/run`), it installs what is missing from
// Debian; otherwise it stops and prints the one command that does. `--check` never installs.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * What the tests run besides Node, each with the Debian package that brings it and where it is
 * looked for (the same places the tests look: playwright.config.ts, tests/support/).
 */
export const TEST_TOOLS = [
  {
    name: 'Chromium (the browser tests; never a downloaded browser)',
    debianPackage: 'chromium',
    present: (probe, env) => probe.file(env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
  },
  {
    name: 'a CJK font (Chinese text at its real width in the browser tests)',
    debianPackage: 'fonts-wqy-microhei',
    present: (probe) => probe.cjkFont(),
  },
  {
    name: 'PostgreSQL 15 (the server tests run a second time on it)',
    debianPackage: 'postgresql',
    present: (probe, env) =>
      probe.file(join(env.PG_BIN_DIR ?? '/usr/lib/postgresql/15/bin', 'initdb')),
  },
  {
    name: 'nginx (the cluster tests)',
    debianPackage: 'nginx',
    present: (probe) => probe.command('nginx') || probe.file('/usr/sbin/nginx'),
  },
  {
    name: 'Redis (the cluster tests)',
    debianPackage: 'redis-server',
    present: (probe) => probe.command('redis-server'),
  },
  {
    name: 'Prometheus and promtool (the alert rules are checked with them)',
    debianPackage: 'prometheus',
    present: (probe) => probe.command('prometheus') && probe.command('promtool'),
  },
  {
    name: 'ZBar (the posters’ QR codes are read back)',
    debianPackage: 'zbar-tools',
    present: (probe) => probe.command('zbarimg'),
  },
  {
    name: 'podman (the image is built and run with it: npm run image, the image tests)',
    debianPackage: 'podman',
    present: (probe) => probe.command('podman'),
  },
  {
    name: 'runc (the runtime podman runs the image with here: deploy/podman/containers.conf)',
    debianPackage: 'runc',
    present: (probe) => probe.command('runc') || probe.file('/usr/sbin/runc'),
  },
  {
    name: 'debootstrap (the image’s base, built from Debian when no registry answers)',
    debianPackage: 'debootstrap',
    present: (probe) => probe.command('debootstrap') || probe.file('/usr/sbin/debootstrap'),
  },
  {
    name: 'catatonit (the pause process of the pods `podman kube play` runs: the overlay test)',
    debianPackage: 'catatonit',
    present: (probe) => probe.command('catatonit') || probe.file('/usr/libexec/podman/catatonit'),
  },
];

/** The tools of TEST_TOOLS that the probe does not find. */
export function missingTools(probe, env) {
  return TEST_TOOLS.filter((tool) => !tool.present(probe, env));
}

/** The one command that installs them (with sudo unless run as root). */
export function installCommand(missing, { root }) {
  const packages = missing.map((tool) => tool.debianPackage).join(' ');
  return `${root ? '' : 'sudo '}apt-get install -y --no-install-recommends ${packages}`;
}

function canRun(path) {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Looks on this machine: files that run, commands on PATH, fontconfig's Chinese fonts. */
export function machineProbe(env) {
  const command = (name) =>
    (env.PATH ?? '')
      .split(delimiter)
      .filter(Boolean)
      .some((dir) => canRun(join(dir, name)));
  return {
    file: canRun,
    command,
    cjkFont: () => {
      const listed = spawnSync('fc-list', [':lang=zh'], { encoding: 'utf8', env });
      return listed.status === 0 && listed.stdout.trim() !== '';
    },
  };
}

function main() {
  const env = process.env;
  const root = process.getuid?.() === 0;
  const mayInstall = !process.argv.includes('--check') && root;
  let missing = missingTools(machineProbe(env), env);
  if (missing.length === 0) {
    console.log(
      'Test tools: all found (Chromium, CJK font, PostgreSQL, nginx, Redis, Prometheus, ZBar, podman, runc, debootstrap, catatonit).',
    );
    return 0;
  }
  const apt = machineProbe(env).command('apt-get');
  if (mayInstall && apt) {
    const packages = missing.map((tool) => tool.debianPackage);
    console.log(`Installing with apt-get: ${packages.join(' ')}`);
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env: aptEnv });
    const install =
      update.status === 0 &&
      spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
        stdio: 'inherit',
        env: aptEnv,
      }).status === 0;
    missing = missingTools(machineProbe(env), env);
    if (install && missing.length === 0) return 0;
  }
  console.error(
    [
      'npm test needs programs this machine lacks:',
      ...missing.map((tool) => `  - ${tool.name}`),
      'Install them from Debian (the browser tests never download a browser):',
      `  ${installCommand(missing, { root })}`,
    ].join('\n'),
  );
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main();
