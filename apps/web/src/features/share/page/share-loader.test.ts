import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { SHARE_PAGE_PATHS, SHELF_API_PATH, type ShareKind } from '@guquan/contract/share-paths';
import { BASE_PATH } from '@guquan/contract/site-paths';
import { cabinetFixture, goodsFixture, noteFixture } from '../../../test-support/share-fixtures';
import { shareLoader } from './share-loader';
import type { ShareLoaderData } from '../share-types';

afterEach(() => {
  vi.unstubAllGlobals();
});

const items = { goods: goodsFixture, cabinet: cabinetFixture, note: noteFixture };

/**
 * The API as the browser meets it: the item answers with `itemStatus` (its JSON when 200), the
 * shelf with no goods. Returns the paths asked for.
 */
function stubApi(kind: ShareKind, itemStatus: number): string[] {
  const asked: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: string) => {
      asked.push(input);
      if (input.startsWith(SHELF_API_PATH)) {
        return Promise.resolve(Response.json({ work: null, goods: [] }));
      }
      return Promise.resolve(
        itemStatus === 200
          ? Response.json(items[kind])
          : new Response(null, { status: itemStatus }),
      );
    }),
  );
  return asked;
}

/** Runs a share page's loader in the browser (jsdom) and waits for all it asked. */
async function loadInBrowser(kind: ShareKind, id: string) {
  const url = new URL(`https://web.example${BASE_PATH}${SHARE_PAGE_PATHS[kind]}?id=${id}`);
  const args: LoaderFunctionArgs = {
    request: new Request(url),
    url,
    pattern: SHARE_PAGE_PATHS[kind],
    params: {},
    context: undefined,
  };
  const loaded = shareLoader(kind)(args) as ShareLoaderData<ShareKind>;
  const [result, shelf] = await Promise.all([loaded.result, loaded.shelf]);
  return { result, shelf };
}

describe('the share loader in the browser asks for the shelf only where the page has one', () => {
  it.each([
    ['cabinet', cabinetFixture.id],
    ['note', noteFixture.id],
  ] as const)('a shown %s: no shelf asked for', async (kind, id) => {
    const asked = stubApi(kind, 200);
    const { result, shelf } = await loadInBrowser(kind, id);
    expect(result.state).toBe('ok');
    expect(shelf).toBeNull();
    expect(asked.filter((path) => path.startsWith(SHELF_API_PATH))).toEqual([]);
  });

  it.each([
    ['cabinet', cabinetFixture.id, 404],
    ['note', noteFixture.id, 410],
  ] as const)('a %s that cannot be shown (%s, %i): its shelf', async (kind, id, status) => {
    const asked = stubApi(kind, status);
    const { result, shelf } = await loadInBrowser(kind, id);
    expect(result.state).not.toBe('ok');
    expect(shelf).toEqual({ work: null, goods: [] });
    expect(asked.filter((path) => path.startsWith(SHELF_API_PATH))).toHaveLength(1);
  });

  it('a shown goods: its shelf, asked for beside the item', async () => {
    const asked = stubApi('goods', 200);
    const { result, shelf } = await loadInBrowser('goods', goodsFixture.id);
    expect(result.state).toBe('ok');
    expect(shelf).toEqual({ work: null, goods: [] });
    expect(asked.filter((path) => path.startsWith(SHELF_API_PATH))).toHaveLength(1);
  });
});
