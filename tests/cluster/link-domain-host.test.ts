import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE_PATH, BASE_PATH } from '@guquan/contract/site-paths';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { DEMO_IDS } from '../../apps/server/src/demo/seed/demo-ids.ts';
import { rawExchange } from '../../apps/server/src/test-support/raw-http.ts';

/**
 * nginx and the app agree on which requests are the app's link domain
 * (docs/decisions/0017-app-links-and-handoffs.md), however a request writes its host: nginx
 * chooses the link domain's `server {}` by the host name (lower case, a trailing dot dropped, the
 * port ignored), an absolute-form target's host over the Host header (RFC 9112 3.2.2). The audit
 * sent `Host: <link host>.` and absolute-form targets: nginx chose the link domain's server, the
 * app, comparing the raw Host header, served the site there (/website, the goods API, the in-app
 * pages 200, the association file 404); and the reverse.
 *
 * Each request goes through nginx and, as it is, straight to an app server: the same answer both
 * ways. The site's `server {}` is told by the X-Cache-Status header it adds (the link domain's has
 * no cache).
 */
const AASA = '/.well-known/apple-app-site-association';
const ASSET_LINKS = '/.well-known/assetlinks.json';
const GOODS = DEMO_IDS.goods.gallery;
/** What the site serves and the link domain must not: a page, the API, an in-app page. */
const SITE_PATHS = [
  `${BASE_PATH}/website`,
  `${API_BASE_PATH}/goods/${GOODS}`,
  `${BASE_PATH}/APPPage/logOut`,
];

let cluster: Cluster;
/** nginx's port: the site is 127.0.0.1 there, the link domain localhost. */
let port: number;
beforeAll(async () => {
  cluster = await startCluster({
    instances: 1,
    cache: true,
    serverOutput: process.env.CLUSTER_LOGS ? 'inherit' : 'ignore',
  });
  port = cluster.nginx.port;
  expect(cluster.linkOrigin).toBe(`http://localhost:${port}`);
});
afterAll(async () => {
  await cluster.stop();
});

interface Answer {
  status: number;
  location: string | undefined;
  contentType: string | undefined;
  /** Answered by nginx's site `server {}` (it adds X-Cache-Status), not the link domain's. */
  bySiteServer: boolean;
}

/** `GET <target>` with `Host: <host>`, written to `toPort` as it is. */
async function get(toPort: number, target: string, host: string): Promise<Answer> {
  const { text } = await rawExchange(
    toPort,
    `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nAccept-Language: en\r\nConnection: close\r\n\r\n`,
  );
  const head = text.split('\r\n\r\n', 1)[0] ?? '';
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1];
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
    location: header('location'),
    contentType: header('content-type'),
    bySiteServer: header('x-cache-status') !== undefined,
  };
}

/** Through nginx and straight to an app server: the answers must agree. */
async function both(target: string, host: string): Promise<Answer> {
  const viaNginx = await get(port, target, host);
  const direct = await get(cluster.servers[0]?.port ?? 0, target, host);
  const what = `GET ${target} Host: ${host}`;
  expect(direct.status, `${what}: the app straight, as through nginx`).toBe(viaNginx.status);
  expect(direct.location, `${what}: the app straight, as through nginx`).toBe(viaNginx.location);
  return viaNginx;
}

/** A path of the link domain's, requested with its host written every way the audit tried. */
function forLinkDomain(path: string): [target: string, host: string][] {
  return [
    [path, `localhost:${port}`],
    [path, `localhost.:${port}`],
    [path, `LOCALHOST:${port}`],
    [path, 'localhost.'],
    [`http://localhost:${port}${path}`, `127.0.0.1:${port}`],
    [`http://LocalHost.:${port}${path}`, `127.0.0.1:${port}`],
  ];
}

/** A path of the site's, likewise. */
function forSite(path: string): [target: string, host: string][] {
  return [
    [path, `127.0.0.1:${port}`],
    [path, `127.0.0.1.:${port}`],
    [`http://127.0.0.1:${port}${path}`, `localhost:${port}`],
    [`http://127.0.0.1.:${port}${path}`, 'localhost.'],
  ];
}

describe('the link domain’s server', () => {
  it('answers its files, however its host is written, and the app agrees', async () => {
    for (const path of [AASA, ASSET_LINKS]) {
      for (const [target, host] of forLinkDomain(path)) {
        const answer = await both(target, host);
        expect(answer.status, `GET ${target} Host: ${host}`).toBe(200);
        expect(answer.contentType, `GET ${target} Host: ${host}`).toMatch(/^application\/json/);
        expect(answer.bySiteServer, `GET ${target} Host: ${host}`).toBe(false);
      }
    }
  });

  it('sends a link the app did not open to its share page', async () => {
    for (const [target, host] of forLinkDomain(`/goods/${GOODS}`)) {
      const answer = await both(target, host);
      expect(answer.status, `GET ${target} Host: ${host}`).toBe(302);
      expect(answer.location, `GET ${target} Host: ${host}`).toBe(
        `${cluster.origin}${BASE_PATH}/AppShare/goodsShare?id=${GOODS}&lang=en&app=missing`,
      );
    }
  });

  it('serves none of the site: its pages, API and in-app pages are not found', async () => {
    for (const path of SITE_PATHS) {
      for (const [target, host] of forLinkDomain(path)) {
        const answer = await both(target, host);
        expect(answer.status, `GET ${target} Host: ${host}`).toBe(404);
        expect(answer.bySiteServer, `GET ${target} Host: ${host}`).toBe(false);
      }
    }
  });
});

describe('the site’s server', () => {
  it('never serves the association files, however its host is written', async () => {
    for (const path of [AASA, ASSET_LINKS]) {
      for (const [target, host] of forSite(path)) {
        const answer = await both(target, host);
        expect(answer.status, `GET ${target} Host: ${host}`).toBe(404);
        expect(answer.bySiteServer, `GET ${target} Host: ${host}`).toBe(true);
      }
    }
  });

  it('serves the site, whatever the Host header says beside an absolute-form target', async () => {
    for (const path of SITE_PATHS) {
      for (const [target, host] of forSite(path)) {
        const answer = await both(target, host);
        expect(answer.status, `GET ${target} Host: ${host}`).toBe(200);
        expect(answer.bySiteServer, `GET ${target} Host: ${host}`).toBe(true);
      }
    }
  });
});
