import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { tokenize } from './user-text-tokens';
import { USER_LINK_REL, UserText } from './user-text';

afterEach(cleanup);

describe('tokenize', () => {
  it('keeps line breaks (\\n, \\r\\n, blank lines)', () => {
    expect(tokenize('a\nb\r\n\nc', { rich: false })).toEqual([
      { type: 'text', text: 'a' },
      { type: 'break' },
      { type: 'text', text: 'b' },
      { type: 'break' },
      { type: 'break' },
      { type: 'text', text: 'c' },
    ]);
  });

  it('finds nothing else in plain text', () => {
    expect(tokenize('#tag @who https://a.cn', { rich: false })).toEqual([
      { type: 'text', text: '#tag @who https://a.cn' },
    ]);
  });

  it('marks #tags (with or without the closing #) and @mentions', () => {
    expect(tokenize('#出谷经验# 感谢@乙骨忧太本命，#咒术回战 #吧唧', { rich: true })).toEqual([
      { type: 'tag', text: '#出谷经验#' },
      { type: 'text', text: ' 感谢' },
      { type: 'mention', text: '@乙骨忧太本命' },
      { type: 'text', text: '，' },
      { type: 'tag', text: '#咒术回战' },
      { type: 'text', text: ' ' },
      { type: 'tag', text: '#吧唧' },
    ]);
  });

  it('leaves e-mail addresses, C# and a lone # or @ as text', () => {
    expect(tokenize('mail a.b@guquan.example, C# and # @ ok', { rich: true })).toEqual([
      { type: 'text', text: 'mail a.b@guquan.example, C# and # @ ok' },
    ]);
  });

  it('links http and https URLs, without the sentence’s closing punctuation', () => {
    expect(
      tokenize('看这里：https://www.guquan.example/rules?from=note. 和 http://a.cn/x)', {
        rich: true,
      }),
    ).toEqual([
      { type: 'text', text: '看这里：' },
      {
        type: 'link',
        text: 'https://www.guquan.example/rules?from=note',
        href: 'https://www.guquan.example/rules?from=note',
      },
      { type: 'text', text: '. 和 ' },
      { type: 'link', text: 'http://a.cn/x', href: 'http://a.cn/x' },
      { type: 'text', text: ')' },
    ]);
  });

  it('never links other schemes', () => {
    const text = 'javascript:alert(1) data:text/html,<b>x</b> vbscript:x ftp://a.cn';
    expect(tokenize(text, { rich: true })).toEqual([{ type: 'text', text }]);
  });
});

describe('UserText', () => {
  it('renders line breaks as <br>', () => {
    const { container } = render(<UserText text={'一\n二\n\n三'} />);
    expect(container.querySelectorAll('br')).toHaveLength(3);
    expect(container.textContent).toBe('一二三');
  });

  it('shows hostile HTML as text and makes no element of it', () => {
    const hostile =
      '<img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a>';
    const { container } = render(<UserText text={hostile} rich />);
    expect(container.textContent).toBe(hostile);
    expect(container.querySelector('img, script')).toBeNull();
    expect(container.querySelectorAll('a')).toHaveLength(0);
  });

  it('renders tags and mentions as links into the app and links as safe links', () => {
    const { container } = render(
      <UserText text="#谷子 @小明 https://a.cn/x javascript:alert(1)" rich />,
    );
    const links = [...container.querySelectorAll('a')];
    expect(links.map((link) => link.firstChild?.textContent)).toEqual([
      '#谷子',
      '@小明',
      'https://a.cn/x',
    ]);
    // Outside a share page (no item) a tag still names its place; an unknown user: the item.
    expect(links[0]?.getAttribute('href')).toBe('/');
    expect(links[0]?.getAttribute('target')).toBeNull();
    expect(links[2]?.getAttribute('href')).toBe('https://a.cn/x');
    expect(links[2]?.getAttribute('rel')).toBe(USER_LINK_REL);
    expect(links[2]?.getAttribute('target')).toBe('_blank');
    expect(container.textContent).toContain('javascript:alert(1)');
  });
});
