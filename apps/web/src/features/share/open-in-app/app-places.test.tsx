import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientInfo } from '@guquan/contract/client-info';
import { goodsFixture, noteFixture } from '../../../test-support/share-fixtures';
import {
  renderShareRoute,
  stubLayoutApis,
  TEST_LINK_ORIGIN,
} from '../../../test-support/share-route';
import { GoodsView } from '../views/goods-view';
import { NoteView } from '../views/note-view';
import { browserLocation } from './browser-location';
import { SharePage } from '../page/share-page';
import { mentionPlace, placeTarget, tagName } from './open-app-at';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const IOS_SAFARI: ClientInfo = { platform: 'ios', inAppBrowser: 'none' };

let assign: ReturnType<typeof vi.fn<(href: string) => void>>;

beforeEach(() => {
  stubLayoutApis();
  assign = vi.fn<(href: string) => void>();
  vi.spyOn(browserLocation, 'assign').mockImplementation(assign);
  vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(IPHONE);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('places in the app', () => {
  it('a #tag as written is the tag’s name', () => {
    expect(tagName('#出谷经验#')).toBe('出谷经验');
    expect(tagName('#吧唧')).toBe('吧唧');
  });

  it('an @mention names a user the page shows, else the item', () => {
    const users = [noteFixture.author, { id: 'userC', nickname: '小明', avatar: null }];
    expect(mentionPlace('@小明', users)).toEqual({ type: 'user', id: 'userC' });
    expect(mentionPlace('@没见过', users)).toBeNull();
  });

  it('a place keeps the page’s item and drops the image', () => {
    const goods = { kind: 'goods', id: 'g1', image: 2 } as const;
    expect(placeTarget(goods, { type: 'tag', name: 't' })).toEqual({
      kind: 'goods',
      id: 'g1',
      place: { type: 'tag', name: 't' },
    });
    expect(placeTarget(goods, null)).toBe(goods);
    expect(placeTarget(null, { type: 'user', id: 'u' })).toBeNull();
  });
});

describe('taps on a goods page', () => {
  async function renderGoods(client: ClientInfo = IOS_SAFARI) {
    renderShareRoute({
      element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
      loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
      client,
    });
    return screen.findByRole('article');
  }

  it('open the app at the owner, a tag, the likes and the wants (iOS: Universal Links)', async () => {
    const article = await renderGoods();
    const from = `from=goods%2F${goodsFixture.id}`;
    const owner = within(article).getByRole('link', { name: /五条悟的猫/ });
    expect(owner.getAttribute('href')).toBe(
      `${TEST_LINK_ORIGIN}/user/${goodsFixture.owner.id}?${from}`,
    );
    fireEvent.click(owner);
    expect(assign).toHaveBeenLastCalledWith(
      `${TEST_LINK_ORIGIN}/user/${goodsFixture.owner.id}?${from}`,
    );
    fireEvent.click(within(article).getByRole('link', { name: /^#五条悟/ }));
    expect(assign).toHaveBeenLastCalledWith(
      `${TEST_LINK_ORIGIN}/tag/${encodeURIComponent('五条悟')}?${from}`,
    );
    const counts = within(article).getByRole('list', { name: '互动数据' });
    const [likes, wants] = within(counts).getAllByRole('link');
    expect(likes?.textContent).toContain('喜欢');
    expect(wants?.textContent).toContain('想要');
    fireEvent.click(wants as HTMLElement);
    expect(assign).toHaveBeenLastCalledWith(`${TEST_LINK_ORIGIN}/goods/${goodsFixture.id}?image=0`);
    expect(assign).toHaveBeenCalledTimes(3);
  });

  it('on a computer, go where "open in app" goes: the download section', async () => {
    const { router } = renderShareRoute({
      element: <SharePage kind="goods">{(item) => <GoodsView goods={item} />}</SharePage>,
      loader: () => ({ kind: 'goods', result: { state: 'ok', item: goodsFixture } }),
      client: { platform: 'other', inAppBrowser: 'none' },
    });
    fireEvent.click(await screen.findByRole('link', { name: /^#吧唧/ }));
    expect(await screen.findByText('website')).toBeDefined();
    expect(router.state.location.pathname).toMatch(/\/website$/);
    expect(assign).not.toHaveBeenCalled();
  });
});

describe('taps on a note page', () => {
  it('a comment opens the note at that comment, from its date or anywhere on it', async () => {
    renderShareRoute({
      path: '/AppShare/notesShare',
      url: `/AppShare/notesShare?id=${noteFixture.id}`,
      element: <SharePage kind="note">{(item) => <NoteView note={item} />}</SharePage>,
      loader: () => ({ kind: 'note', result: { state: 'ok', item: noteFixture } }),
      client: IOS_SAFARI,
    });
    const comments = await screen.findByRole('region', { name: '热门评论' });
    const [first, second] = within(comments).getAllByRole('listitem');
    const comment = `${TEST_LINK_ORIGIN}/note/${noteFixture.id}?comment=`;
    fireEvent.click(within(first as HTMLElement).getByText(/太有用了/));
    expect(assign).toHaveBeenLastCalledWith(`${comment}${noteFixture.topComments[0]?.id ?? ''}`);
    fireEvent.click(within(second as HTMLElement).getByRole('link', { name: /查看这条评论/ }));
    expect(assign).toHaveBeenLastCalledWith(`${comment}${noteFixture.topComments[1]?.id ?? ''}`);
    // The mention in the reply is its own link: the user, not the comment.
    fireEvent.click(within(second as HTMLElement).getByRole('link', { name: /^@乙骨忧太本命/ }));
    expect(assign).toHaveBeenLastCalledWith(
      `${TEST_LINK_ORIGIN}/user/userBBBBBBBBBBB2?from=note%2F${noteFixture.id}`,
    );
    expect(assign).toHaveBeenCalledTimes(3);
  });
});
