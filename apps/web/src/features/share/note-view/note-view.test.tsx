import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Note } from '@guquan/contract/share';
import { noteFixture } from '../../../test-support/share-fixtures';
import { SharePage } from '../share-page/share-page';
import { renderShareRoute, stubLayoutApis } from '../../../test-support/share-route';
import { USER_LINK_REL } from '../user-text/user-text';
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
    expect(article.textContent).toContain('发布于 2025-11-02');
  });

  it('keeps the text’s line breaks, marks #tags and @mentions, links only http(s)', async () => {
    renderNote();
    const text = await screen.findByText(/第一次出谷，记录/);
    expect(text.querySelectorAll('br')).toHaveLength(5);
    const marked = [...text.querySelectorAll('span')].map((span) => span.textContent);
    expect(marked).toEqual(['#出谷经验#', '@乙骨忧太本命', '#咒术回战', '#吧唧']);
    const links = within(text).getAllByRole('link');
    expect(links).toHaveLength(1);
    expect(links[0]?.getAttribute('href')).toBe('https://www.guquan.example/rules?from=note');
    expect(links[0]?.getAttribute('rel')).toBe(USER_LINK_REL);
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
    ).toEqual(['#新话题']);
  });

  it('shows the top comments and the way to the rest in the app', async () => {
    renderNote();
    const comments = await screen.findByRole('region', { name: '热门评论' });
    const items = within(comments).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('乙骨忧太本命');
    expect(items[0]?.querySelectorAll('br')).toHaveLength(1);
    expect(items[1]?.querySelector('span[class*="mention"]')?.textContent).toBe('@乙骨忧太本命');
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
