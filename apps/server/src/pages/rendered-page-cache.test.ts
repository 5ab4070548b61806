import { describe, expect, it } from 'vitest';
import {
  cachedPage,
  createRenderedPageCache,
  encodedBody,
  pageBytes,
} from './rendered-page-cache.ts';

const page = (text: string) => cachedPage(200, text, 'W/"e"', 'csp');

describe('the cache of rendered pages', () => {
  it('keeps within its byte limit by dropping the least recently used pages', () => {
    const size = pageBytes(page('x'.repeat(1000)));
    const cache = createRenderedPageCache({ maxBytes: size * 3 });
    cache.set('a', page('a'.repeat(1000)));
    cache.set('b', page('b'.repeat(1000)));
    cache.set('c', page('c'.repeat(1000)));
    expect(cache.get('a')).toBeDefined(); // a is now the most recently used
    cache.set('d', page('d'.repeat(1000)));
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBeDefined();
    expect(cache.get('c')).toBeDefined();
    expect(cache.get('d')).toBeDefined();
    expect(cache.size).toBe(3);
    expect(cache.bytes).toBeLessThanOrEqual(size * 3);
  });

  it('stays bounded however many different pages pass through', () => {
    const cache = createRenderedPageCache({ maxBytes: 50_000 });
    for (let index = 0; index < 10_000; index += 1)
      cache.set(`page ${index}`, page(`${index}`.padEnd(900, '.')));
    expect(cache.bytes).toBeLessThanOrEqual(50_000);
    expect(cache.size).toBeLessThan(60);
    expect(cache.get('page 9999')).toBeDefined();
    expect(cache.get('page 0')).toBeUndefined();
  });

  it('counts compressed copies, and never keeps a page larger than the limit', () => {
    const text = 'a page, compressed well. '.repeat(400);
    const cache = createRenderedPageCache({ maxBytes: pageBytes(page(text)) + 400 });
    const kept = page(text);
    cache.set('one', kept);
    encodedBody(kept, 'br');
    encodedBody(kept, 'gzip');
    cache.get('one');
    expect(cache.bytes).toBe(pageBytes(kept));
    cache.set('huge', page('h'.repeat(100_000)));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('compresses a page once per encoding', () => {
    const kept = page('<p>hello</p>'.repeat(200));
    const first = encodedBody(kept, 'br');
    expect(encodedBody(kept, 'br')).toBe(first);
    expect(encodedBody(kept, undefined)).toBe(kept.html);
    expect(first.length).toBeLessThan(kept.html.length);
  });
});
