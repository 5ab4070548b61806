import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { podman, podmanEnv } from './podman.ts';

/**
 * Stand-ins for the official images the try overlay names (postgres:15, redis:7), which no
 * registry here can give: one root file system made from Debian 12's own packages (PostgreSQL 15
 * and Redis 7, as the official images hold), imported twice, each with what its official image
 * does on start. Built once per machine and kept in podman's storage (about 2 minutes).
 */
export const TRY_POSTGRES_IMAGE = 'localhost/guquan-try-postgres:15';
export const TRY_REDIS_IMAGE = 'localhost/guquan-try-redis:7';
const DEBIAN_MIRROR = process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian';
/** The uid the overlay runs both as (the official images' postgres and redis users). */
const SERVICE_UID = 999;

/**
 * What the official postgres image does on start, for what the overlay uses: on an empty PGDATA,
 * a cluster owned by POSTGRES_USER with POSTGRES_PASSWORD (scram-sha-256 over TCP) and the
 * database POSTGRES_DB; then the server, on every address, on PGPORT (5432 by default).
 */
const POSTGRES_ENTRYPOINT = `#!/bin/sh
set -eu
bin=/usr/lib/postgresql/15/bin
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  mkdir -p "$PGDATA"
  printf '%s' "$POSTGRES_PASSWORD" > /tmp/pwfile
  "$bin/initdb" -D "$PGDATA" -U "$POSTGRES_USER" --pwfile=/tmp/pwfile \\
    --auth-local=trust --auth-host=scram-sha-256 >/dev/null
  rm -f /tmp/pwfile
  echo "host all all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
  echo "CREATE DATABASE \\"$POSTGRES_DB\\" OWNER \\"$POSTGRES_USER\\";" \\
    | "$bin/postgres" --single -D "$PGDATA" postgres >/dev/null
fi
# Kubernetes makes the socket folder (an emptyDir) the group's (fsGroup); podman does not.
sockets=/var/run/postgresql
[ -w "$sockets" ] || sockets=/tmp
exec "$bin/postgres" -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories="$sockets"
`;

function imageExists(name: string): boolean {
  return podman(['image', 'exists', name]).status === 0;
}

function must(command: string, args: string[], options: { input?: string } = {}): void {
  const run = spawnSync(command, args, {
    env: podmanEnv,
    encoding: 'utf8',
    input: options.input,
    stdio: [options.input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'],
    timeout: 900_000,
  });
  if (run.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${run.status})`);
}

/** Builds the two stand-in images when podman does not have them yet. */
export function ensureTryServiceImages(): void {
  if (imageExists(TRY_POSTGRES_IMAGE) && imageExists(TRY_REDIS_IMAGE)) return;
  const dir = mkdtempSync(join(tmpdir(), 'guquan-try-services-'));
  try {
    must('debootstrap', ['--variant=minbase', 'bookworm', dir, DEBIAN_MIRROR]);
    must('chroot', [
      dir,
      'sh',
      '-c',
      [
        'set -eu',
        // Nothing starts in the chroot, and no cluster is made: the image's start makes its own.
        "printf '#!/bin/sh\\nexit 101\\n' > /usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d",
        'mkdir -p /etc/postgresql-common && echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf',
        'apt-get update -qq',
        'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 redis-server >/dev/null',
        'apt-get clean',
        'rm -rf /var/lib/apt/lists/* /usr/sbin/policy-rc.d',
        'chmod 1777 /tmp',
        // The official images' users are 999: the overlay runs both as it.
        `mkdir -p /var/run/postgresql && chown ${SERVICE_UID}:${SERVICE_UID} /var/run/postgresql`,
      ].join('; '),
    ]);
    const entrypoint = join(dir, 'usr/local/bin/docker-entrypoint.sh');
    writeFileSync(entrypoint, POSTGRES_ENTRYPOINT);
    chmodSync(entrypoint, 0o755);
    const tar = (changes: string[], image: string) => {
      must('sh', [
        '-c',
        `tar --numeric-owner -C '${dir}' -c . | podman import ${changes
          .map((change) => `--change '${change}'`)
          .join(' ')} - ${image}`,
      ]);
    };
    const path = 'ENV PATH=/usr/lib/postgresql/15/bin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
    tar(
      [
        path,
        'ENV PGDATA=/var/lib/postgresql/data',
        'ENTRYPOINT ["/usr/local/bin/docker-entrypoint.sh"]',
      ],
      TRY_POSTGRES_IMAGE,
    );
    tar([path, 'WORKDIR /data', 'CMD ["redis-server"]'], TRY_REDIS_IMAGE);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
