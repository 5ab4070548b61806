import { describe, expect, it } from 'vitest';
import { SHARE_TEXT_CODE_PATTERN, shareText } from './app-link-paths.ts';

const LINK = 'https://link.example/goods/goodsAAAAAAAAAA1?image=0';

describe('shareText', () => {
  it('is Chinese by default, the 淘口令 way', () => {
    expect(shareText(' 五条悟  吧唧 ', LINK, 'AB12CD34EF56')).toBe(
      `【谷圈】五条悟 吧唧 ￥AB12CD34EF56￥ ${LINK}`,
    );
  });

  it('is English when the page is, and the app still finds its code', () => {
    const text = shareText('Gojo badge', LINK, 'AB12CD34EF56', 'en');
    expect(text).toBe(`[Goods Circle] Gojo badge ￥AB12CD34EF56￥ ${LINK}`);
    expect(SHARE_TEXT_CODE_PATTERN.exec(text)?.[1]).toBe('AB12CD34EF56');
    expect(shareText('Gojo badge', LINK, undefined, 'en')).toBe(
      `[Goods Circle] Gojo badge ${LINK}`,
    );
  });
});
