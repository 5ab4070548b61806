import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import { describe, expect, it, vi } from 'vitest';
import {
  cachedPage,
  createRenderedPageCache,
  encodedBody,
  pageBytes,
} from './rendered-page-cache.ts';
import { EVENTUALLY } from '../test-support/eventually.ts';

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
    await vi.waitFor(() => {
      expect(kept.encoded.get('br')?.bytes).not.toBe(quick);
    }, EVENTUALLY);
    const best = await encodedBody(kept, 'br');
    expect(best.length).toBeLessThan(quick.length);
    expect((await promisify(brotliDecompress)(best)).toString()).toBe(text);
    const gzipped = await encodedBody(kept, 'gzip');
    expect((await promisify(gunzip)(gzipped)).toString()).toBe(text);
  });
});

describe('pages rendered once into the cache', () => {
  /** A render that finishes when the test says so. */
  function heldRender(text: string) {
    let finish: () => void = () => undefined;
    const render = vi.fn(
      () =>
        new Promise<ReturnType<typeof page>>((resolve) => {
          finish = () => {
            resolve(page(text));
          };
        }),
    );
    return {
      render,
      finish: () => {
        finish();
      },
    };
  }

  it('renders a page once however many ask meanwhile, and asks for a render only when none is under way', async () => {
    const cache = createRenderedPageCache({ maxBytes: 1_000_000 });
    const { render, finish } = heldRender('one');
    const mayRender = vi.fn(() => true);
    const first = cache.once('a', render, mayRender);
    // A request past its budget still gets the page already being rendered.
    const refused = cache.once('a', render, () => false);
    finish();
    const [firstPage, waiting] = await Promise.all([first, refused]);
    expect(waiting).toBe(firstPage);
    expect(render).toHaveBeenCalledTimes(1);
    expect(mayRender).toHaveBeenCalledTimes(1);
    // Kept: the next asks neither render nor budget.
    expect(await cache.once('a', render, mayRender)).toBe(firstPage);
    expect(mayRender).toHaveBeenCalledTimes(1);
    expect(cache.get('a')).toBe(firstPage);
    // Nothing under way and not allowed: no page, nothing rendered.
    expect(await cache.once('b', render, () => false)).toBeUndefined();
    expect(render).toHaveBeenCalledTimes(1);
  });

  it('keeps no failed render, and answers those waiting on a render the cache dropped meanwhile', async () => {
    const size = pageBytes(page('x'.repeat(1000)));
    const evicted = vi.fn();
    const cache = createRenderedPageCache({ maxBytes: size * 2, onEvict: evicted });
    await expect(
      cache.once('broken', () => Promise.reject(new Error('render failed'))),
    ).rejects.toThrow('render failed');
    expect(await cache.once('broken', () => Promise.resolve(page('x'.repeat(1000))))).toBeDefined();

    const { render, finish } = heldRender('y'.repeat(1000));
    const held = cache.once('held', render);
    const waiting = cache.once('held', render);
    // Pages stored meanwhile push everything older out, the render under way too.
    for (const name of ['c', 'd', 'e']) cache.set(name, page(name.repeat(1000)));
    expect(evicted).toHaveBeenCalledTimes(2); // broken and c
    finish();
    const [heldPage, waitedPage] = await Promise.all([held, waiting]);
    expect(waitedPage).toBe(heldPage);
    expect(heldPage.html.toString()).toBe('y'.repeat(1000));
    expect(render).toHaveBeenCalledTimes(1);
    // Kept as the newest page, as every render is: d goes to make room.
    expect(cache.get('held')).toBe(heldPage);
    expect(cache.get('d')).toBeUndefined();
    expect(evicted).toHaveBeenCalledTimes(3);
    expect(cache.bytes).toBeLessThanOrEqual(size * 2);
  });
});
