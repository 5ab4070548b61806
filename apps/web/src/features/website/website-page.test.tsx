import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { company, download } from '@content/site.json';
import website from '@content/website.json';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { fullPath, routeTable, type RouteEntry } from '../../config/route-table';
import type { ClientInfo } from '@guquan/contract/client-info';
import { ClientInfoProvider } from '../../lib/client/client-info-context';
import { copyrightYears } from '../../lib/format/dates';
import { LanguageProvider } from '../../lib/i18n/language-context';
import { WebsitePage } from './website-page';

// The guide loads on demand: its module is fetched once here, so the taps below find it at once.
beforeAll(async () => {
  await import('../../components/open-in-browser-guide/open-in-browser-guide');
});

const BROWSER: ClientInfo = { platform: 'other', inAppBrowser: 'none' };

function renderWebsite(language: Language = 'zh-CN', client: ClientInfo = BROWSER) {
  const router = createMemoryRouter(
    [
      { path: '/website', element: <WebsitePage /> },
      { path: '*', element: <p>another page</p> },
    ],
    { basename: BASE_PATH, initialEntries: [`${BASE_PATH}/website`] },
  );
  return render(
    <LanguageProvider language={language}>
      <ClientInfoProvider client={client}>
        <RouterProvider router={router} />
      </ClientInfoProvider>
    </LanguageProvider>,
  );
}

function section(name: string): HTMLElement {
  return screen.getByRole('region', { name });
}

function storesIn(element: HTMLElement): (string | null)[] {
  return [...element.querySelectorAll('a[data-store]')].map((link) =>
    link.getAttribute('data-store'),
  );
}

afterEach(cleanup);

describe('WebsitePage', () => {
  it.each([
    ['ios', ['ios', 'android']],
    ['android', ['android', 'ios']],
    ['other', ['ios', 'android']],
  ] as const)('on %s puts the visitor’s store first', (platform, order) => {
    renderWebsite('zh-CN', { platform, inAppBrowser: 'none' });
    const text = website['zh-CN'];
    expect(storesIn(section(text.download.heading))).toEqual(order);
    expect(storesIn(section(text.hero.title))).toEqual(order);
    const links = section(text.download.heading).querySelectorAll('a[data-store]');
    expect(links[0]?.getAttribute('href')).toBe(download[order[0]].url);
    expect(links[1]?.getAttribute('href')).toBe(download[order[1]].url);
  });

  it('follows the store link in an ordinary browser', () => {
    renderWebsite('zh-CN', { platform: 'android', inAppBrowser: 'none' });
    const link = within(section(website['zh-CN'].download.heading)).getByRole('link', {
      name: website['zh-CN'].download.android.label,
    });
    // Watches the click after the page's own handlers, then stops jsdom from leaving the page.
    let cancelledByPage: boolean | undefined;
    const watch = (event: MouseEvent) => {
      cancelledByPage = event.defaultPrevented;
      event.preventDefault();
    };
    document.addEventListener('click', watch);
    fireEvent.click(link);
    document.removeEventListener('click', watch);
    expect(cancelledByPage).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the open-in-browser guide instead of following the link inside WeChat', async () => {
    renderWebsite('zh-CN', { platform: 'ios', inAppBrowser: 'wechat' });
    const text = website['zh-CN'];
    const downloads = section(text.download.heading);
    expect(downloads.textContent).toContain('你正在微信内浏览');
    const link = within(downloads).getByRole('link', { name: text.download.ios.label });
    link.focus();
    // fireEvent.click answers false when the page cancelled the navigation.
    expect(fireEvent.click(link)).toBe(false);
    const dialog = await screen.findByRole('dialog', { name: text.guide.title });
    for (const step of text.guide.steps) expect(dialog.textContent).toContain(step);
    expect(dialog.textContent).toContain('微信内无法直接下载安装 App');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(link);
  });

  it('opens the guide from the hero button and the notice in Douyin and Weibo on Android too', async () => {
    renderWebsite('en', { platform: 'android', inAppBrowser: 'douyin' });
    const text = website.en;
    const [heroLink] = within(section(text.hero.title)).getAllByRole('link');
    expect(heroLink?.getAttribute('data-store')).toBe('android');
    expect(heroLink && fireEvent.click(heroLink)).toBe(false);
    expect((await screen.findByRole('dialog', { name: text.guide.title })).textContent).toContain(
      'inside Douyin',
    );
    fireEvent.click(screen.getByRole('button', { name: text.guide.close }));
    cleanup();

    renderWebsite('zh-CN', { platform: 'android', inAppBrowser: 'weibo' });
    fireEvent.click(screen.getByRole('button', { name: website['zh-CN'].download.showGuide }));
    expect((await screen.findByRole('dialog')).textContent).toContain('微博内无法直接下载安装 App');
  });

  it.each([
    ['android', 'qq'],
    ['ios', 'qzone'],
    ['ios', 'weibo'],
    ['android', 'qqbrowser'],
  ] as const)(
    'lets the store links through on %s in %s, which reach the stores',
    (platform, app) => {
      renderWebsite('zh-CN', { platform, inAppBrowser: app });
      const text = website['zh-CN'];
      const [heroLink] = within(section(text.hero.title)).getAllByRole('link');
      expect(heroLink && fireEvent.click(heroLink)).toBe(true);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.queryByRole('button', { name: text.download.showGuide })).toBeNull();
    },
  );

  it('has one main, one h1 and the sections the header links to', () => {
    const { container } = renderWebsite();
    expect(container.querySelectorAll('main')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    const nav = screen.getByRole('navigation', { name: website['zh-CN'].header.navLabel });
    for (const link of within(nav).getAllByRole('link')) {
      const id = link.getAttribute('href')?.slice(1) ?? '';
      expect(container.querySelector(`main section[id="${id}"]`), id).not.toBeNull();
    }
    expect(container.querySelector('main section#download')).not.toBeNull();
  });

  it.each(['zh-CN', 'en'] as const)('takes every text from website.json (%s)', (language) => {
    const { container } = renderWebsite(language);
    const text = website[language];
    const other = website[language === 'en' ? 'zh-CN' : 'en'];
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(text.hero.title);
    expect(container.textContent).not.toContain(other.hero.title);
    for (const item of text.features.items) {
      expect(screen.getByRole('heading', { level: 3, name: item.title })).toBeDefined();
      expect(container.textContent).toContain(item.text);
    }
    for (const item of text.screens.items) {
      expect(screen.getByRole('img', { name: item.alt })).toBeDefined();
      expect(container.textContent).toContain(item.caption);
    }
    expect(screen.getByRole('img', { name: text.hero.imageAlt })).toBeDefined();
    for (const item of text.header.nav) {
      expect(screen.getByRole('link', { name: item.label }).getAttribute('href')).toBe(
        `#${item.target}`,
      );
    }
    const footer = screen.getByRole('contentinfo');
    const companyName = language === 'en' ? company.nameEn : company.name;
    expect(footer.textContent).toContain(
      `© ${copyrightYears(text.footer.copyrightYear)} ${companyName} ${text.footer.rightsReserved}`,
    );
    expect(footer.textContent).toContain(company.address);
  });

  it('ends the copyright at the year of the render’s clock, from the content file’s first year', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2031-06-01T00:00:00Z'));
      renderWebsite('en');
      expect(screen.getByRole('contentinfo').textContent).toContain(
        `© ${website.en.footer.copyrightYear}–2031 ${company.nameEn}`,
      );
    } finally {
      vi.useRealTimers();
    }
  });

  it('offers the same page in the other language, keeping the path, as a real link', () => {
    renderWebsite('zh-CN');
    const nav = within(screen.getByRole('contentinfo')).getByRole('navigation', { name: '语言' });
    const link = within(nav).getByRole('link', { name: 'English' });
    expect(link.getAttribute('href')).toBe(`${BASE_PATH}/website?lang=en`);
    expect(link.getAttribute('lang')).toBe('en');
    expect(link.getAttribute('hreflang')).toBe('en');
  });

  it('links the footer to the agreements, the filings and the contacts', () => {
    renderWebsite('en');
    const text = website.en.footer;
    const agreements = screen.getByRole('navigation', { name: text.agreementsLabel });
    for (const agreement of text.agreements) {
      const route = (routeTable as readonly RouteEntry[]).find(
        (entry) => entry.id === agreement.route,
      );
      expect(route).toBeDefined();
      expect(
        within(agreements).getByRole('link', { name: agreement.label }).getAttribute('href'),
      ).toBe(route && fullPath(route));
    }
    expect(screen.getByRole('link', { name: company.icp }).getAttribute('href')).toBe(
      company.icpUrl,
    );
    expect(screen.getByRole('link', { name: company.publicSecurity }).getAttribute('href')).toBe(
      company.publicSecurityUrl,
    );
    expect(screen.getByRole('link', { name: company.email }).getAttribute('href')).toBe(
      `mailto:${company.email}`,
    );
    expect(screen.getByRole('link', { name: company.phone }).getAttribute('href')).toBe(
      'tel:057188886666',
    );
  });
});
