import type { Locator, Page } from '@playwright/test';
import type { Cabinet, Goods, Note } from '@guquan/contract/share';
import { formatPrice } from '@guquan/contract/price';
import { shareApiPath, sharePagePath, type ShareKind } from '@guquan/contract/share-paths';
import { fill, shareTexts } from '../../apps/web/src/features/share/texts/all-share-texts.ts';
import { chinaDay, formatCalendarDate } from '../../apps/web/src/lib/format/dates.ts';
import {
  BASE_PATH,
  DEMO_IDS,
  expect,
  expectNoAxeViolations,
  LANGUAGES,
  open,
  test,
  waitForApp,
  withLang,
  type Language,
} from './fixtures.ts';

/**
 * Issue 31, section 3: share pages that lead somewhere. Users, tags, mentions, counts and comments
 * are links into the app (on the link domain; a tap without the app comes back to the page);
 * comments and goods say when they were posted; cabinet tiles of goods for sale show the price;
 * a cabinet's cover opens in the viewer. At 390 and 320 px, in both languages, axe on each page.
 */
const WIDTHS = [390, 320] as const;
const SHOTS = '/tmp/shots-i31-links';
/** The smallest tap target (WCAG 2.5.5, Apple's and Google's guidance). */
const TAP = 44;

async function readShare<T>(page: Page, kind: ShareKind, id: string): Promise<T> {
  const response = await page.request.get(shareApiPath(kind, id));
  expect(response.status()).toBe(200);
  return (await response.json()) as T;
}

async function openShare(
  page: Page,
  kind: ShareKind,
  id: string,
  language: Language,
  width: number,
) {
  await page.setViewportSize({ width, height: 800 });
  await open(page, withLang(`${BASE_PATH}${sharePagePath(kind, id)}`, language));
  await waitForApp(page);
}

function day(iso: string, language: Language): string {
  return formatCalendarDate(chinaDay(iso), language);
}

/** A link into the app: to the link domain, focusable, at least 44 px high. */
async function expectAppLink(link: Locator, path: RegExp, { inline = false } = {}) {
  await expect(link).toHaveAttribute('href', path);
  await expect(link).toBeVisible();
  await link.focus();
  await expect(link).toBeFocused();
  if (inline) {
    // In running text the line stays as it is; the padding makes the target taller.
    const padding = await link.evaluate((element) =>
      parseFloat(getComputedStyle(element).paddingTop),
    );
    expect(padding).toBeGreaterThan(4);
  } else {
    const box = await link.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(TAP - 0.5);
  }
}

for (const language of LANGUAGES) {
  const text = shareTexts(language);
  for (const width of WIDTHS) {
    test(`note in ${language} at ${width}px: #tags, @mentions, the author and comments lead into the app; comments show their date`, async ({
      page,
    }) => {
      const note = await readShare<Note>(page, 'note', DEMO_IDS.notes.rich);
      await openShare(page, 'note', note.id, language, width);
      const article = page.locator('main article').first();
      const from = `from=note%2F${note.id}`;
      const body = article.locator('p', { hasText: note.text.split('\n')[0] ?? '' }).first();
      const tags = body.locator('a[href*="/tag/"]');
      await expect(tags).toHaveCount(note.tags.length);
      await expectAppLink(tags.first(), new RegExp(`/tag/[^/?]+\\?${from}$`), { inline: true });
      await expect(tags.first()).toHaveAccessibleName(new RegExp(`^#${note.tags[0] ?? ''}`));
      // Mentions of users the page shows (commenters) open those users.
      const mentions = body.locator('a[class*="mention"]');
      expect(await mentions.count()).toBeGreaterThan(0);
      await expectAppLink(mentions.first(), /\/user\/[\w-]+\?from=note%2F/, { inline: true });
      await expect(mentions.first()).toHaveAccessibleName(/^@/);
      // Nothing a user wrote became markup.
      await expect(body.locator(':not(a, br, span)')).toHaveCount(0);

      await expectAppLink(
        article.getByRole('link', { name: new RegExp(note.author.nickname) }).first(),
        new RegExp(`/user/${note.author.id}\\?${from}$`),
      );
      const counts = article.getByRole('list', { name: text.counts });
      await expectAppLink(counts.getByRole('link').first(), new RegExp(`/note/${note.id}$`));

      const comments = page.getByRole('region', { name: text.topComments });
      for (const [index, comment] of note.topComments.entries()) {
        const item = comments.getByRole('listitem').nth(index);
        const time = `time[datetime="${comment.createdAt}"]`;
        await expect(item.locator(time)).toHaveText(day(comment.createdAt, language));
        await expectAppLink(
          item.getByRole('link').filter({ has: page.locator(time) }),
          new RegExp(`/note/${note.id}\\?comment=${comment.id}$`),
        );
      }
      await page.screenshot({ path: `${SHOTS}/note-${language}-${width}.png`, fullPage: true });
      await expectNoAxeViolations(page);
    });

    test(`goods in ${language} at ${width}px: the owner, likes, wants and tags lead into the app; when it was posted`, async ({
      page,
    }) => {
      const goods = await readShare<Goods>(page, 'goods', DEMO_IDS.goods.gallery);
      await openShare(page, 'goods', goods.id, language, width);
      const article = page.locator('main article').first();
      const from = `from=goods%2F${goods.id}`;
      await expectAppLink(
        article.getByRole('link', { name: new RegExp(goods.owner.nickname) }),
        new RegExp(`/user/${goods.owner.id}\\?${from}$`),
      );
      const counts = article.getByRole('list', { name: text.counts }).getByRole('link');
      await expect(counts).toHaveCount(2);
      for (const count of await counts.all())
        await expectAppLink(count, new RegExp(`/goods/${goods.id}\\?image=0$`));
      const tags = article.getByRole('list', { name: text.tags }).getByRole('link');
      await expect(tags).toHaveCount(goods.tags.length);
      await expectAppLink(tags.first(), new RegExp(`/tag/[^/?]+\\?${from}$`));
      const posted = article.locator(`time[datetime="${goods.createdAt}"]`);
      await expect(posted).toHaveText(
        fill(text.publishedOn, { date: day(goods.createdAt, language) }),
      );
      await expect(posted).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/goods-${language}-${width}.png`, fullPage: true });
      await expectNoAxeViolations(page);
    });

    test(`cabinet in ${language} at ${width}px: prices on tiles for sale, the cover in the viewer`, async ({
      page,
    }) => {
      const cabinet = await readShare<Cabinet>(page, 'cabinet', DEMO_IDS.cabinets.main);
      await openShare(page, 'cabinet', cabinet.id, language, width);
      const section = page.getByRole('region', { name: text.itemsHeading });
      const selling = cabinet.items.filter(
        (item) => item.status === 'selling' && typeof item.priceFen === 'number',
      );
      expect(selling.length).toBeGreaterThan(0);
      for (const [index, item] of cabinet.items.slice(0, 9).entries()) {
        const tile = section.getByRole('listitem').nth(index);
        if (item.status === 'selling' && typeof item.priceFen === 'number')
          await expect(tile).toContainText(formatPrice(item.priceFen));
        else await expect(tile).not.toContainText('¥');
      }
      await page.screenshot({ path: `${SHOTS}/cabinet-${language}-${width}.png` });
      await section.getByRole('listitem').nth(3).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/cabinet-tiles-${language}-${width}.png` });
      await expectNoAxeViolations(page);

      await page.getByRole('button', { name: text.viewLarge }).first().click();
      const viewer = page.getByRole('dialog');
      await expect(viewer).toBeVisible();
      await expect(viewer.getByRole('img').first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/cabinet-viewer-${language}-${width}.png` });
      await page.goBack();
      await expect(viewer).toBeHidden();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(cabinet.name);
    });
  }
}

test.describe('a tap without the app', () => {
  test.use({ locale: 'zh-CN' });

  test('on the owner or a tag goes through the link domain and comes back to the same page, the app missing', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(60_000);
    const site = new URL(baseURL ?? '');
    const linkOrigin = `http://${site.hostname}:${Number(site.port) + 1}`;
    const goods = await readShare<Goods>(page, 'goods', DEMO_IDS.goods.gallery);
    await openShare(page, 'goods', goods.id, 'zh-CN', 390);
    const owner = page
      .locator('main article')
      .getByRole('link', { name: new RegExp(goods.owner.nickname) });
    await expect(owner).toHaveAttribute(
      'href',
      `${linkOrigin}/user/${goods.owner.id}?from=goods%2F${goods.id}`,
    );
    const fallback = page.waitForResponse((response) => response.url().startsWith(linkOrigin));
    await owner.click();
    expect((await fallback).status()).toBe(302);
    await page.waitForURL(/app=missing/);
    const landed = new URL(page.url());
    expect(landed.origin).toBe(site.origin);
    expect(landed.pathname).toBe(`${BASE_PATH}${sharePagePath('goods')}`);
    expect(Object.fromEntries(landed.searchParams)).toEqual({
      id: goods.id,
      lang: 'zh-CN',
      app: 'missing',
    });
    await waitForApp(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(goods.name);

    const note = await readShare<Note>(page, 'note', DEMO_IDS.notes.rich);
    await openShare(page, 'note', note.id, 'zh-CN', 390);
    const back = page.waitForURL(/notesShare\?.*app=missing/);
    await page.locator('main article a[href*="/tag/"]').first().click();
    await back;
    expect(new URL(page.url()).searchParams.get('id')).toBe(note.id);
  });
});
