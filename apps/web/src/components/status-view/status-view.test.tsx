import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StatusView } from './status-view';

afterEach(cleanup);

describe('StatusView', () => {
  it('leads with the words; a status code comes last, in small print', () => {
    const { container } = render(
      <StatusView heading="这件谷子已被删除" body="作者或平台已删除这条内容。" code="410" />,
    );
    const section = container.querySelector('section');
    expect(section?.firstElementChild).toBe(screen.getByRole('heading', { level: 1 }));
    expect(section?.lastElementChild?.textContent).toBe('410');
    expect(section?.lastElementChild?.className).toMatch(/code/);
  });

  it('shows no symbol of its own without a code', () => {
    const { container } = render(<StatusView heading="请先登录" body="登录后才能注销账号。" />);
    expect(container.querySelector('section')?.textContent).toBe('请先登录登录后才能注销账号。');
  });
});
