import { afterEach, describe, expect, it, vi } from 'vitest';
import { routerPath, startOnIntent, type StartedApp } from './start-on-intent';

const BASE = '/anime_merch_web';

function page(html: string): HTMLElement {
  document.body.innerHTML = `<div id="root">${html}</div>`;
  const root = document.getElementById('root');
  if (!root) throw new Error('no root');
  return root;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * Clicks, and says whether the page held the click (jsdom cannot load another document: a click
 * the page lets through is stopped once it has been seen).
 */
function click(element: Element, init: MouseEventInit = {}): { defaultPrevented: boolean } {
  const event = new MouseEvent('click', { bubbles: true, cancelable: true, button: 0, ...init });
  let held = false;
  const seen = (seenEvent: Event) => {
    held = seenEvent.defaultPrevented;
    seenEvent.preventDefault();
  };
  document.addEventListener('click', seen, { once: true });
  element.dispatchEvent(event);
  return { defaultPrevented: held };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('routerPath', () => {
  it('takes a link under the base, with its query and hash', () => {
    const root = page(`<a href="${BASE}/AppShare/goodsShare?id=abc#top">x</a>`);
    const anchor = root.querySelector('a') as HTMLAnchorElement;
    expect(routerPath(anchor, BASE)).toBe('/AppShare/goodsShare?id=abc#top');
  });

  it('leaves other origins, other paths, downloads, new tabs and document loads alone', () => {
    const root = page(
      [
        '<a href="https://link.example/g/abc">a</a>',
        '<a href="/elsewhere">b</a>',
        `<a href="${BASE}/x.apk" download>c</a>`,
        `<a href="${BASE}/website" target="_blank">d</a>`,
        `<a href="${BASE}/website?lang=en" data-reload-document>e</a>`,
        '<a>f</a>',
      ].join(''),
    );
    for (const anchor of root.querySelectorAll('a')) expect(routerPath(anchor, BASE)).toBeNull();
  });
});

describe('startOnIntent', () => {
  it('starts the app on the first intent only, and once', () => {
    const root = page('<p>text</p>');
    const startApp = vi.fn(() => new Promise<StartedApp>(() => undefined));
    startOnIntent({ root, startApp, basePath: BASE });
    expect(startApp).not.toHaveBeenCalled();
    document.dispatchEvent(new Event('pointerdown'));
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Shift' }));
    expect(startApp).toHaveBeenCalledTimes(1);
  });

  it('holds a click on a link of the site and gives it to the router once the app is here', async () => {
    const root = page(`<a href="${BASE}/AppShare/goodsShare?id=b">next</a>`);
    const app = deferred<StartedApp>();
    const navigate = vi.fn();
    startOnIntent({ root, startApp: () => app.promise, basePath: BASE });
    const event = click(root.querySelector('a') as Element);
    expect(event.defaultPrevented).toBe(true);
    expect(navigate).not.toHaveBeenCalled();
    app.resolve({ navigate });
    await vi.waitFor(() => {
      expect(navigate).toHaveBeenCalledWith('/AppShare/goodsShare?id=b');
    });
  });

  it('clicks a held button again once the app is here, and only then', async () => {
    const root = page('<button type="button">next image</button>');
    const app = deferred<StartedApp>();
    startOnIntent({ root, startApp: () => app.promise, basePath: BASE });
    const button = root.querySelector('button') as HTMLButtonElement;
    const clicks = vi.fn();
    button.addEventListener('click', (event) => {
      if (!event.defaultPrevented) clicks();
    });
    click(button);
    expect(clicks).not.toHaveBeenCalled();
    app.resolve({ navigate: vi.fn() });
    await vi.waitFor(() => {
      expect(clicks).toHaveBeenCalledTimes(1);
    });
  });

  it('lets a held link load its document when the app cannot be had; a button does nothing', async () => {
    const root = page(`<a href="${BASE}/website">site</a><button type="button">poster</button>`);
    const assign = vi.fn();
    const start = startOnIntent({
      root,
      startApp: () => Promise.reject(new Error('offline')),
      basePath: BASE,
      assign,
    });
    const button = root.querySelector('button') as HTMLButtonElement;
    const buttonClicks = vi.fn();
    button.addEventListener('click', (event) => {
      if (!event.defaultPrevented) buttonClicks();
    });
    click(root.querySelector('a') as Element);
    click(button);
    await expect(start()).resolves.toBeNull();
    expect(assign).toHaveBeenCalledWith(`${window.location.origin}${BASE}/website`);
    expect(buttonClicks).not.toHaveBeenCalled();
  });

  it('leaves alone the clicks another handler takes, links out of the site and modified clicks', () => {
    const root = page(
      `<a id="tap" href="https://link.example/g/a">open</a><a id="out" href="https://example.com/">out</a><a id="mod" href="${BASE}/website">site</a>`,
    );
    const startApp = vi.fn(() => new Promise<StartedApp>(() => undefined));
    startOnIntent({
      root,
      startApp,
      basePath: BASE,
      handledElsewhere: (event) => (event.target as Element).id === 'tap',
    });
    expect(click(root.querySelector('#tap') as Element).defaultPrevented).toBe(false);
    expect(click(root.querySelector('#out') as Element).defaultPrevented).toBe(false);
    expect(click(root.querySelector('#mod') as Element, { ctrlKey: true }).defaultPrevented).toBe(
      false,
    );
    expect(startApp).not.toHaveBeenCalled();
  });

  it('stops listening once the app is here', async () => {
    const root = page(`<a href="${BASE}/website">site</a>`);
    const start = startOnIntent({
      root,
      startApp: () => Promise.resolve({ navigate: vi.fn() }),
      basePath: BASE,
    });
    await start();
    expect(click(root.querySelector('a') as Element).defaultPrevented).toBe(false);
  });
});
