#!/usr/bin/env node
// Writes the files of deploy/kubernetes/base that are made from others in deploy/ (kustomize reads
// only files under the kustomization's own folder):
//   nginx/nginx.conf       deploy/nginx.conf.template filled in for the cluster (upstream = the
//                          servers' headless Service, found by DNS; an Ingress controller in front)
//   prometheus/alerts.yml  deploy/alerts.yml as it is
// `node scripts/kubernetes-files.mjs` writes them; `--check` only says whether they are current
// (the tests run it: tests/repo/kubernetes.test.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE = join(ROOT, 'deploy/kubernetes/base');

/** A setting of deploy/kubernetes/base/settings.env (the ConfigMap the servers read). */
function setting(name) {
  const line = readFileSync(join(BASE, 'settings.env'), 'utf8')
    .split('\n')
    .find((candidate) => candidate.startsWith(`${name}=`));
  if (!line) throw new Error(`deploy/kubernetes/base/settings.env: no ${name}`);
  return line.slice(name.length + 1).trim();
}

/** The namespace of deploy/kubernetes/base/kustomization.yaml: nginx asks DNS for a name in it. */
export const NAMESPACE = 'guquan';

/** The placeholders of deploy/nginx.conf.template, as the cluster's pods see things. */
export const NGINX_VALUES = {
  // emptyDirs and the web files the nginx pod's init container copies from the site's image
  // (deploy/kubernetes/base/nginx.yaml).
  RUN_DIR: '/run/nginx',
  LISTEN: '8080',
  UPSTREAM_SERVERS: [
    '        # Every ready server, by the headless Service (one DNS record per ready pod), asked',
    '        # again as the records expire (`resolve`, nginx 1.27.3 and later; needs the zone).',
    '        zone guquan_app 256k;',
    `        server guquan-web-pods.${NAMESPACE}.svc.cluster.local:8080 resolve max_fails=1 fail_timeout=5s;`,
  ].join('\n'),
  ASSETS_DIR: '/srv/guquan/assets',
  CACHE_DIR: '/var/cache/nginx/guquan',
  PROXY_CACHE: 'guquan',
  ERRORS_DIR: '/srv/guquan/errors',
  // The link domain's host name: LINK_ORIGIN's in the base's settings.env.
  LINK_HOST: new URL(setting('LINK_ORIGIN')).hostname,
  HTTP_EXTRA: [
    "    # In Kubernetes: the cluster's DNS, for the servers' addresses (every 5 s at most).",
    '    resolver kube-dns.kube-system.svc.cluster.local valid=5s ipv6=off;',
    '    resolver_timeout 2s;',
    '    # An Ingress controller is in front: the client is the last address of its',
    "    # X-Forwarded-For that is not inside the cluster's pod network (TRUST_PROXY's, too);",
    '    # $remote_addr below becomes it.',
    '    set_real_ip_from 10.0.0.0/8;',
    '    real_ip_header X-Forwarded-For;',
    '    real_ip_recursive on;',
  ].join('\n'),
};

/** deploy/nginx.conf.template with each @NAME@ replaced; an unknown one is an error. */
export function renderNginx(template, values) {
  return template.replace(/@([A-Z_]+)@/g, (match, name) => {
    const value = values[name];
    if (value === undefined) throw new Error(`nginx.conf.template: unknown placeholder ${match}`);
    return value;
  });
}

const HEADER = (source) =>
  `# Made by scripts/kubernetes-files.mjs from ${source}: change that file, then run the script.\n`;

export function expectedFiles() {
  const template = readFileSync(join(ROOT, 'deploy/nginx.conf.template'), 'utf8');
  const alerts = readFileSync(join(ROOT, 'deploy/alerts.yml'), 'utf8');
  return new Map([
    [
      join(BASE, 'nginx/nginx.conf'),
      HEADER('deploy/nginx.conf.template') + renderNginx(template, NGINX_VALUES),
    ],
    [join(BASE, 'prometheus/alerts.yml'), HEADER('deploy/alerts.yml') + alerts],
  ]);
}

function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [path, content] of expectedFiles()) {
    let current;
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === content) continue;
    if (check) stale.push(relative(ROOT, path));
    else {
      writeFileSync(path, content);
      console.log(`wrote ${relative(ROOT, path)}`);
    }
  }
  if (stale.length > 0) {
    console.error(
      `not current: ${stale.join(', ')} (run node scripts/kubernetes-files.mjs to write them)`,
    );
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
