import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider, type LoaderFunction } from 'react-router';
import { vi } from 'vitest';
import type { Language } from '@guquan/contract/language';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { LinkOriginProvider } from '../lib/app-links/link-origin';
import type { ClientInfo } from '@guquan/contract/client-info';
import { ClientInfoProvider } from '../lib/client/client-info-context';
import { LanguageProvider } from '../lib/i18n/language-context';
import { shareShouldRevalidate } from '../features/share/page/share-revalidate';

/** The link domain the share tests' pages get from their server. */
export const TEST_LINK_ORIGIN = 'https://link.guquan.example';

/** What the share tests render: one share route in a memory router, and the pages it links to. */
export function renderShareRoute({
  path = '/AppShare/goodsShare',
  url = `${path}?id=goodsAAAAAAAAAA1`,
  element,
  loader,
  language = 'zh-CN',
  client = { platform: 'other', inAppBrowser: 'none' },
}: {
  path?: string;
  url?: string;
  element: ReactNode;
  loader?: LoaderFunction;
  language?: Language;
  client?: ClientInfo;
}) {
  const router = createMemoryRouter(
    [
      {
        path,
        element,
        shouldRevalidate: shareShouldRevalidate,
        ...(loader ? { loader } : {}),
        HydrateFallback: () => null,
      },
      { path: '/AppShare/goodsShare', element: <p>goods page</p> },
      { path: '/website', element: <p>website</p> },
    ],
    { basename: BASE_PATH, initialEntries: [`${BASE_PATH}${url}`] },
  );
  const view = render(
    <LanguageProvider language={language}>
      <ClientInfoProvider client={client}>
        <LinkOriginProvider linkOrigin={TEST_LINK_ORIGIN}>
          <RouterProvider router={router} />
        </LinkOriginProvider>
      </ClientInfoProvider>
    </LanguageProvider>,
  );
  return { ...view, router };
}

/** jsdom lacks these; the gallery and the viewer call them. */
export function stubLayoutApis(): void {
  Element.prototype.scrollTo = vi.fn();
  Element.prototype.setPointerCapture = vi.fn();
  if (typeof window.PointerEvent === 'undefined') {
    class PointerEventPolyfill extends MouseEvent {
      readonly pointerId: number;
      readonly pointerType: string;
      constructor(type: string, init: PointerEventInit = {}) {
        super(type, init);
        this.pointerId = init.pointerId ?? 1;
        this.pointerType = init.pointerType ?? 'touch';
      }
    }
    window.PointerEvent = PointerEventPolyfill as unknown as typeof PointerEvent;
  }
}
