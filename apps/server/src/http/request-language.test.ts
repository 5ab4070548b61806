import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { acceptedLanguage, requestLanguage } from './request-language.ts';

describe('the language of a request', () => {
  const app = Fastify();
  app.get('/both', (request) => requestLanguage(request));
  app.get('/header', (request) => ({ language: acceptedLanguage(request) }));
  afterAll(() => app.close());

  async function ask(url: string, acceptLanguage?: string): Promise<unknown> {
    const headers = acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage };
    return (await app.inject({ url, headers })).json();
  }

  it('takes ?lang= when it names one of ours, then Accept-Language, then Chinese', async () => {
    expect(await ask('/both?lang=en', 'zh-CN')).toEqual({ language: 'en', source: 'query' });
    expect(await ask('/both?lang=fr', 'fr, en;q=0.5')).toEqual({
      language: 'en',
      source: 'header',
    });
    expect(await ask('/both')).toEqual({ language: 'zh-CN', source: 'header' });
  });

  it('reads the first of several ?lang= and no oversized header', async () => {
    expect(await ask('/both?lang=en&lang=zh')).toEqual({ language: 'en', source: 'query' });
    expect(await ask('/both', `en, ${'x'.repeat(600)}`)).toEqual({
      language: 'zh-CN',
      source: 'header',
    });
  });

  it('reads Accept-Language alone where ?lang= is not the visitor’s', async () => {
    expect(await ask('/header?lang=en', 'zh')).toEqual({ language: 'zh-CN' });
    expect(await ask('/header', 'en-GB')).toEqual({ language: 'en' });
  });
});
