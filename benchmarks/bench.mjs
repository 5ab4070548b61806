// Lighthouse, mobile preset (a mid-range phone on a slow 4G network, simulated), in Debian's
// Chromium, against the production build served on loopback. Prints, for each page, largest
// contentful paint, total blocking time, time to interactive, cumulative layout shift and bytes
// transferred, and writes the full reports to bench-results/. `--no-script` measures each page
// with its scripts blocked: the floor a page's own HTML, styles and pictures set, which script can
// only add to (issue 41 compares LCP with it).
//
//   npm run build && npm run bench [-- --runs 3] [-- --only website] [-- --no-script]
//   npm run bench -- --only goods-share,cabinet-share,notes-share --runs 5   (the share pages)
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { loadDemoIds, startBuiltServer } from './bench-support.mjs';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    only: { type: 'string' },
    port: { type: 'string', default: '18090' },
    'no-script': { type: 'boolean', default: false },
  },
});
const noScript = values['no-script'];
/** `--only a,b`: the pages whose name contains any of them (`share-` would also take a legal page). */
const only = values.only?.split(',').filter(Boolean);
const runs = Math.max(1, Number(values.runs));
const origin = `http://127.0.0.1:${values.port}`;

const DEMO_IDS = await loadDemoIds();

/** The pages measured. Each is measured in Chinese, as most visitors. */
const PAGES = [
  ['goods-share', `/anime_merch_web/AppShare/goodsShare?id=${DEMO_IDS.goods.gallery}`],
  ['cabinet-share', `/anime_merch_web/AppShare/cabinetShare?id=${DEMO_IDS.cabinets.main}`],
  ['notes-share', `/anime_merch_web/AppShare/notesShare?id=${DEMO_IDS.notes.rich}`],
  ['website', '/anime_merch_web/website'],
  ['vip-agreement', '/anime_merch_web/agreement/vip/VipAgreement'],
  ['user-agreement', '/anime_merch_web/agreement/user/UserAgreement'],
  ['user-agreement-20251015', '/anime_merch_web/agreement/user/UserAgreement20251015'],
  ['privacy-policy', '/anime_merch_web/agreement/yiSi/YiSiAgreement'],
  ['privacy-policy-20261128', '/anime_merch_web/agreement/yiSi/YiSiAgreement20261128'],
  ['exposure-agreement', '/anime_merch_web/agreement/ExposureAgreement'],
  ['exposure-note-agreement', '/anime_merch_web/agreement/exposureNote/ExposureNoteAgreement'],
  ['user-info-list', '/anime_merch_web/agreement/userInfoList'],
  ['third-party-share-list', '/anime_merch_web/agreement/thirdPartyShareList'],
  // The in-app pages, as a browser outside the app opens them (no bridge, no session).
  ['in-app-redeem-design', '/anime_merch_web/APPPage/cashDesign'],
  ['in-app-membership', '/anime_merch_web/APPPage/iosVipBuy'],
  ['in-app-account-deletion', '/anime_merch_web/APPPage/logOut'],
].filter(([name]) => !only || only.some((part) => name.includes(part)));

// A fresh database with the demo data, removed at the end.
const dataDir = await mkdtemp(join(tmpdir(), 'guquan-bench-'));

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

/** One Lighthouse run; a run whose trace came out broken (it happens now and then) is redone. */
async function measure(url, attempts = 3) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      // The site's own scripts (the inline start-up script then imports nothing).
      ...(noScript ? { blockedUrlPatterns: ['*/anime_merch_web/assets/*.js'] } : {}),
    });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    if (!result.lhr.runtimeError) return result;
    if (attempt >= attempts) throw new Error(`${url}: ${result.lhr.runtimeError.message}`);
  }
}

const server = await startBuiltServer({ port: values.port, dataDir });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
    '--lang=zh-CN',
  ],
});
await mkdir('bench-results', { recursive: true });
// Every image a page lists is resized once, on its first request: make that happen before measuring.
for (const [, path] of PAGES) {
  const html = await (await fetch(`${origin}${path}`)).text();
  const urls = [...html.matchAll(/(?:imagesrcset|srcset)="([^"]+)"/g)].flatMap(([, list]) =>
    list.split(',').map((candidate) => candidate.trim().split(/\s+/)[0]),
  );
  await Promise.all(urls.map((url) => fetch(`${origin}${url.replaceAll('&amp;', '&')}`)));
}
// A fresh browser paints its first page late; one unrecorded run keeps that out of the figures.
await measure(`${origin}${PAGES[0]?.[1] ?? '/anime_merch_web/website'}`);
const rows = [];
try {
  for (const [name, path] of PAGES) {
    const samples = [];
    for (let run = 0; run < runs; run += 1) {
      const result = await measure(`${origin}${path}`);
      const { audits, categories } = result.lhr;
      samples.push({
        lcp: audits['largest-contentful-paint'].numericValue,
        tbt: audits['total-blocking-time'].numericValue,
        tti: audits.interactive.numericValue,
        cls: audits['cumulative-layout-shift'].numericValue,
        bytes: audits['total-byte-weight'].numericValue,
        performance: categories.performance.score * 100,
        accessibility: categories.accessibility.score * 100,
      });
      const suffix = noScript ? '-no-script' : '';
      await writeFile(`bench-results/${name}${suffix}-${run + 1}.json`, result.report);
    }
    const pick = (key) => median(samples.map((sample) => sample[key]));
    rows.push({
      page: name,
      'LCP ms': Math.round(pick('lcp')),
      'TBT ms': Math.round(pick('tbt')),
      'TTI ms': Math.round(pick('tti')),
      CLS: Number(pick('cls').toFixed(3)),
      'kB transferred': Number((pick('bytes') / 1000).toFixed(1)),
      perf: Math.round(pick('performance')),
      a11y: Math.round(pick('accessibility')),
    });
    console.log(`measured ${name}`);
  }
} finally {
  await chrome.kill();
  server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
console.log(
  `\nLighthouse mobile preset${noScript ? ', scripts blocked' : ''}, median of ${runs} run(s) per page:`,
);
console.table(rows);
