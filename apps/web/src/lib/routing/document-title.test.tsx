import { act, render, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DEFAULT_TITLES, routeTable } from '../../config/route-table';
import { LanguageProvider } from '../i18n/language-context';
import { titleForMatches, useDocumentTitle } from './document-title';

describe('titleForMatches', () => {
  it("takes the deepest route's title in the page's language", () => {
    const matches = [
      { handle: {} },
      { handle: { titles: { 'zh-CN': '痛柜', en: 'painful cabinet' } } },
    ];
    expect(titleForMatches(matches, 'zh-CN')).toBe('痛柜');
    expect(titleForMatches(matches, 'en')).toBe('painful cabinet');
  });

  it('falls back to the default title when no route gives one', () => {
    expect(titleForMatches([{ handle: {} }, { handle: undefined }], 'zh-CN')).toBe('谷圈APP');
    expect(titleForMatches([], 'en')).toBe('goods-circle APP');
  });
});

function TitledLayout() {
  useDocumentTitle();
  return <Outlet />;
}

describe('useDocumentTitle', () => {
  it('sets document.title on every navigation, forward and back', async () => {
    const children = routeTable.map((entry) => ({
      id: entry.id,
      path: entry.path === '*' ? '*' : entry.path.slice(1),
      handle: 'titles' in entry ? { titles: entry.titles } : {},
      element: <p>{entry.id}</p>,
    }));
    const router = createMemoryRouter([{ path: '/', element: <TitledLayout />, children }], {
      initialEntries: ['/website'],
    });
    render(
      <LanguageProvider language="en">
        <RouterProvider router={router} />
      </LanguageProvider>,
    );
    await waitFor(() => {
      expect(document.title).toBe('goods-circle official website');
    });
    for (const entry of routeTable) {
      const path = entry.path === '*' ? '/no/such/page' : entry.path;
      await act(() => router.navigate(path));
      expect(document.title).toBe('titles' in entry ? entry.titles.en : DEFAULT_TITLES.en);
    }
    await act(() => router.navigate('/AppShare/cabinetShare'));
    await act(() => router.navigate('/website'));
    await act(() => router.navigate(-1));
    expect(document.title).toBe('painful cabinet');
  });
});
