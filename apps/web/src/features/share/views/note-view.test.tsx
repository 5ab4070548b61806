import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Note } from '@guquan/contract/share';
import { noteFixture } from '../../../test-support/share-fixtures';
import { SharePage } from '../page/share-page';
import {
  renderShareRoute,
  stubLayoutApis,
  TEST_LINK_ORIGIN,
} from '../../../test-support/share-route';
import { USER_LINK_REL } from './user-text';
import { NoteView } from './note-view';

beforeEach(stubLayoutApis);
afterEach(cleanup);

function renderNote(note: Note = noteFixture) {
  return renderShareRoute({
    path: '/AppShare/notesShare',
    url: `/AppShare/notesShare?id=${note.id}`,
    element: <SharePage kind="note">{(item) => <NoteView note={item} />}</SharePage>,
    loader: () => ({ kind: 'note', result: { state: 'ok', item: note } }),
  });
}

describe('NoteView', () => {
  it('shows the author, title, images and counts', async () => {
    renderNote();
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(noteFixture.title);
    const article = screen.getByRole('article');
    expect(article.textContent).toContain(noteFixture.author.nickname);
    const gallery = screen.getByRole('region', { name: '图片' });
    expect(within(gallery).getAllByRole('img')).toHaveLength(2);
    expect(within(gallery).getAllByRole('img')[0]?.getAttribute('loading')).toBe('eager');
    const counts = within(article).getAllByRole('list', { name: '互动数据' })[0];
    expect(counts?.textContent).toContain('1024');
    expect(counts?.textContent).toContain('300');
    expect(counts?.textContent).toContain('42');
    expect(article.textContent).toContain('发布于 2025年11月2日');
  });

  it('keeps the text’s line breaks, marks #tags and @mentions, links only http(s)', async () => {
    renderNote();
    const text = await screen.findByText(/第一次出谷，记录/);
    expect(text.querySelectorAll('br')).toHaveLength(5);
    // #tags and @mentions are links into the app: the tag, the commenter the mention names.
    const links = within(text).getAllByRole('link');
    expect(links.map((link) => link.firstChild?.textContent)).toEqual([
      '#出谷经验#',
      '@乙骨忧太本命',
      'https://www.guquan.example/rules?from=note',
      '#咒术回战',
      '#吧唧',
    ]);
    const from = `from=note%2F${noteFixture.id}`;
    const [tag, mention, external, ...tags] = links;
    expect([tag, mention, ...tags].map((link) => link?.getAttribute('href'))).toEqual([
      `${TEST_LINK_ORIGIN}/tag/${encodeURIComponent('出谷经验')}?${from}`,
      `${TEST_LINK_ORIGIN}/user/userBBBBBBBBBBB2?${from}`,
      `${TEST_LINK_ORIGIN}/tag/${encodeURIComponent('咒术回战')}?${from}`,
      `${TEST_LINK_ORIGIN}/tag/${encodeURIComponent('吧唧')}?${from}`,
    ]);
    expect(mention?.textContent).toBe('@乙骨忧太本命，在谷圈 App 中查看');
    expect(external?.getAttribute('href')).toBe('https://www.guquan.example/rules?from=note');
    expect(external?.getAttribute('rel')).toBe(USER_LINK_REL);
    expect(text.textContent).toContain('javascript:alert(1)');
    expect(text.textContent).toContain('<img src=x onerror=alert(1)>');
    expect(text.querySelector('img')).toBeNull();
  });

  it('lists tags the text does not show', async () => {
    renderNote({ ...noteFixture, tags: ['出谷经验', '新话题'] });
    const tags = await screen.findByRole('list', { name: '标签' });
    expect(
      within(tags)
        .getAllByRole('listitem')
        .map((tag) => tag.textContent),
    ).toEqual(['#新话题，在谷圈 App 中查看']);
  });

  it('shows the top comments and the way to the rest in the app', async () => {
    renderNote();
    const comments = await screen.findByRole('region', { name: '热门评论' });
    const items = within(comments).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('乙骨忧太本命');
    expect(items[0]?.querySelectorAll('br')).toHaveLength(1);
    expect(items[1]?.querySelector('a[class*="mention"]')?.firstChild?.textContent).toBe(
      '@乙骨忧太本命',
    );
    // Each comment: its date, and a link into the app at that comment.
    const open = within(items[0] as HTMLElement).getByRole('link', { name: /查看这条评论/ });
    expect(open.textContent).toContain('2025年11月3日');
    expect(open.querySelector('time')?.getAttribute('dateTime')).toBe('2025-11-03T01:00:00.000Z');
    expect(open.getAttribute('href')).toBe(
      `${TEST_LINK_ORIGIN}/note/${noteFixture.id}?comment=${noteFixture.topComments[0]?.id ?? ''}`,
    );
    expect(
      within(items[0] as HTMLElement)
        .getByRole('link', { name: /乙骨忧太本命/ })
        .getAttribute('href'),
    ).toBe(`${TEST_LINK_ORIGIN}/user/userBBBBBBBBBBB2?from=note%2F${noteFixture.id}`);
    expect(
      within(comments).getByRole('button', { name: '在 App 内查看全部 42 条评论' }),
    ).toBeDefined();
  });

  it('without images or comments still invites to the app', async () => {
    renderNote({ ...noteFixture, images: [], topComments: [], comments: 0 });
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByRole('region', { name: '图片' })).toBeNull();
    expect(screen.getByText('还没有评论，来 App 里抢沙发吧')).toBeDefined();
    expect(screen.getByRole('button', { name: '更多精彩内容在谷圈 App' })).toBeDefined();
  });

  it('does not offer "the full note" in the app when the whole note is on the page', async () => {
    renderNote(noteFixture);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.queryByText(/完整笔记/)).toBeNull();
    expect(screen.getByRole('link', { name: '去 App 评论、收藏这篇笔记' })).toBeDefined();
  });
});
