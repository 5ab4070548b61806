import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import {
  cachedPage,
  createRenderedPageCache,
  encodedBody,
  pageBytes,
} from './rendered-page-cache.ts';

const page = (text: string) => cachedPage(200, text, 'W/"e"', 'csp', undefined);

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

  it('counts compressed copies, and never keeps a page larger than the limit', async () => {
    const text = 'a page, compressed well. '.repeat(400);
    const cache = createRenderedPageCache({ maxBytes: pageBytes(page(text)) + 400 });
    const kept = page(text);
    cache.set('one', kept);
    await encodedBody(kept, 'br');
    await encodedBody(kept, 'gzip');
    cache.get('one');
    expect(cache.bytes).toBe(pageBytes(kept));
    cache.set('huge', page('h'.repeat(100_000)));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('compresses a page once per encoding, however many ask at once', async () => {
    const kept = page('<p>hello</p>'.repeat(200));
    const [first, second] = await Promise.all([encodedBody(kept, 'br'), encodedBody(kept, 'br')]);
    expect(second).toBe(first);
    expect(await encodedBody(kept, undefined)).toBe(kept.html);
    expect(first.length).toBeLessThan(kept.html.length);
  });

  it('compresses off the event loop, quickly for a page sent once, smallest for a page sent again', async () => {
    // A page as large and varied as a share page, so the two ways differ.
    const text = Array.from(
      { length: 3000 },
      (_, index) => `<li data-i="${index}">${(index * 7919).toString(36)} 谷子 ${index % 17}</li>`,
    ).join('');
    const kept = page(text);
    const ticks = vi.fn();
    const ticking = setInterval(ticks, 0);
    const quick = await encodedBody(kept, 'br');
    clearInterval(ticking);
    // The event loop ran while the page was compressed: the work was elsewhere.
    expect(ticks).toHaveBeenCalled();
    expect((await promisify(brotliDecompress)(quick)).toString()).toBe(text);
    // Sent again: the same quick copy now, the smallest once made in the background.
    expect(await encodedBody(kept, 'br')).toBe(quick);
    await vi.waitFor(
      () => {
        expect(kept.encoded.get('br')?.bytes).not.toBe(quick);
      },
      { timeout: 10_000 },
    );
    const best = await encodedBody(kept, 'br');
    expect(best.length).toBeLessThan(quick.length);
    expect((await promisify(brotliDecompress)(best)).toString()).toBe(text);
    const gzipped = await encodedBody(kept, 'gzip');
    expect((await promisify(gunzip)(gzipped)).toString()).toBe(text);
  });
});
