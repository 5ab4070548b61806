import { describe, expect, it } from 'vitest';
import { goodsSharePath, keepLanguage } from './share-links';

describe('keepLanguage', () => {
  it('adds the current ?lang before any #section', () => {
    expect(keepLanguage('/website#download', '?id=x&lang=en')).toBe('/website?lang=en#download');
    expect(keepLanguage('/a?id=1', '?lang=zh-CN')).toBe('/a?id=1&lang=zh-CN');
  });

  it('leaves the path alone without ?lang', () => {
    expect(keepLanguage('/website#download', '?id=x')).toBe('/website#download');
  });
});

describe('goodsSharePath', () => {
  it('links a goods share page by id', () => {
    expect(goodsSharePath('goodsAAAAAAAAAA1', '')).toBe('/AppShare/goodsShare?id=goodsAAAAAAAAAA1');
    expect(goodsSharePath('goodsAAAAAAAAAA1', '?lang=en')).toBe(
      '/AppShare/goodsShare?id=goodsAAAAAAAAAA1&lang=en',
    );
  });
});
