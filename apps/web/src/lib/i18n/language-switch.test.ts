import { describe, expect, it } from 'vitest';
import { otherLanguage, pathInLanguage } from './language-switch';

describe('otherLanguage', () => {
  it('offers English on a Chinese page and Chinese on an English one', () => {
    expect(otherLanguage('zh-CN')).toBe('en');
    expect(otherLanguage('en')).toBe('zh-CN');
  });
});

describe('pathInLanguage', () => {
  it('keeps the path and sets ?lang=', () => {
    expect(pathInLanguage('/website', '', 'en')).toBe('/website?lang=en');
  });

  it('keeps every other parameter and replaces the language', () => {
    expect(
      pathInLanguage('/AppShare/goodsShare', '?id=goodsAAAAAAAAAA1&lang=en&image=2', 'zh-CN'),
    ).toBe('/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=zh-CN&image=2');
  });

  it('leaves one ?lang=, whatever came in', () => {
    expect(pathInLanguage('/x', '?lang=en&lang=fr', 'zh-CN')).toBe('/x?lang=zh-CN');
  });
});
