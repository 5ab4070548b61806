// Takes the website's "A first look" pictures from the real pages: the goods, cabinet and note
// share pages of the demo data, as a phone shows them (360 × 720 CSS px, the app bar closed),
// saved as WebP at twice that width for sharp screens. Real screens, not drawings.
//
//   npm run build && node scripts/make-screens.mjs   (after a visible change to those pages; the
//   pictures are committed in apps/web/src/features/website/screens/)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import sharp from 'sharp';
import './load-typescript.mjs';

const { startBuiltServer } = await import('../tests/support/built-server.ts');
const { freePort } = await import('../tests/support/postgres-server.ts');

const DEMO = {
  goods: 'AppShare/goodsShare?id=XT9gwR1a_mH_vtRA',
  cabinet: 'AppShare/cabinetShare?id=mlN25p4nV8l4zowW',
  notes: 'AppShare/notesShare?id=Y741zuQyHnNvKWz5',
};
const out = new URL('../apps/web/src/features/website/screens/', import.meta.url);

const port = await freePort();
const dataDir = await mkdtemp(join(tmpdir(), 'guquan-screens-'));
const server = await startBuiltServer({ port, dataDir, output: 'ignore' });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
try {
  const context = await browser.newContext({
    viewport: { width: 360, height: 720 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  });
  // The app bar closed, as a visitor who has seen it would have it.
  await context.addInitScript(() => {
    sessionStorage.setItem('guquan.share.appBarDismissed', '1');
  });
  for (const [name, path] of Object.entries(DEMO)) {
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}/anime_merch_web/${path}&lang=zh-CN`);
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => globalThis.document.fonts.ready);
    // The web page's own "open in app" dock is not part of the app's screen.
    await page.evaluate(() => {
      // Runs in the page (globalThis is its window).
      const { document, getComputedStyle } = globalThis;
      for (const button of document.querySelectorAll('main button')) {
        const dock = button.parentElement;
        if (dock && ['sticky', 'fixed'].includes(getComputedStyle(dock).position)) dock.remove();
      }
    });
    const png = await page.screenshot({ type: 'png' });
    await sharp(png)
      .webp({ quality: 72, effort: 6 })
      .toFile(new URL(`screen-${name}.webp`, out).pathname);
    await page.close();
  }
} finally {
  await browser.close();
  server.kill();
  await rm(dataDir, { recursive: true, force: true });
}
