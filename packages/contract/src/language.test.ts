import { describe, expect, it } from 'vitest';
import { languageOfTag, parseAcceptLanguage, pickLanguage } from './language.ts';

describe('pickLanguage', () => {
  it('lets ?lang= win over the preferred languages', () => {
    expect(pickLanguage('en', ['zh-CN'])).toBe('en');
    expect(pickLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
  });

  it('ignores a ?lang= that names no language of ours', () => {
    expect(pickLanguage('fr', ['en-GB'])).toBe('en');
    expect(pickLanguage('', ['en'])).toBe('en');
    expect(pickLanguage('<script>', [])).toBe('zh-CN');
  });

  it('takes the first Chinese or English preference, skipping others', () => {
    expect(pickLanguage(null, ['fr-FR', 'en-US', 'zh-CN'])).toBe('en');
    expect(pickLanguage(null, ['ja', 'zh-TW', 'en'])).toBe('zh-CN');
    expect(pickLanguage(undefined, ['zh-Hant-HK'])).toBe('zh-CN');
  });

  it('falls back to Chinese', () => {
    expect(pickLanguage(null, [])).toBe('zh-CN');
    expect(pickLanguage(null, ['de', 'ko'])).toBe('zh-CN');
  });
});

describe('languageOfTag', () => {
  it('reads the primary subtag, case-insensitively', () => {
    expect(languageOfTag('EN-us')).toBe('en');
    expect(languageOfTag('zh_CN')).toBe('zh-CN');
    expect(languageOfTag('english')).toBeUndefined();
  });
});

describe('parseAcceptLanguage', () => {
  it('orders by q-value, then by position', () => {
    expect(parseAcceptLanguage('fr;q=0.5, en;q=0.8, zh-CN')).toEqual(['zh-CN', 'en', 'fr']);
    expect(parseAcceptLanguage('en, zh')).toEqual(['en', 'zh']);
  });

  it('drops refused (q=0) and malformed entries', () => {
    expect(parseAcceptLanguage('zh;q=0, en;q=0.1')).toEqual(['en']);
    expect(parseAcceptLanguage('<<<, en-US, ;;;, *')).toEqual(['en-US', '*']);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage(undefined)).toEqual([]);
  });

  it('reads a bounded number of entries from a huge header', () => {
    const header = Array.from({ length: 10_000 }, () => 'de').join(',') + ',en';
    expect(parseAcceptLanguage(header)).not.toContain('en');
  });

  it('decides the language together with pickLanguage', () => {
    expect(pickLanguage(null, parseAcceptLanguage('fr-CH, fr;q=0.9, en;q=0.8, zh;q=0.7'))).toBe(
      'en',
    );
    expect(pickLanguage(null, parseAcceptLanguage('en;q=0.5, zh-TW;q=0.9'))).toBe('zh-CN');
  });
});
