import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { pageAssets } from './page-assets.ts';
import type { BuildManifest } from './web-build.ts';

/** A build whose share route module starts without React (a start chunk) and loads its page. */
const manifest: BuildManifest = {
  'index.html': {
    file: 'assets/index.js',
    isEntry: true,
    imports: ['_react.js', '_start-base.js'],
  },
  '_react.js': { file: 'assets/react.js' },
  '_start-base.js': { file: 'assets/start-base.js' },
  '_share-base.js': { file: 'assets/share-base.js', imports: ['_start-base.js'] },
  'src/app/routes/share-pages.tsx': {
    file: 'assets/share-pages.js',
    imports: ['_share-base.js', '_start-base.js'],
  },
  'src/features/share/page/share-route-page.tsx': {
    file: 'assets/share-route-page.js',
    imports: ['_react.js', '_share-base.js'],
    css: ['assets/share-route-page.css'],
  },
};

const build = {
  manifest,
  entryStyles: ['assets/index.css'],
  styles: new Map([
    ['assets/index.css', 'body{margin:0}'],
    ['assets/share-route-page.css', 'main{color:red}'],
  ]),
};
const modules = ['src/app/routes/share-pages.tsx', 'src/features/share/page/share-route-page.tsx'];

interface Run {
  /** What the page asked for, in order: `preload <file>`, `import <file>`, `startPage`. */
  steps: string[];
  /** Draws the first image (its `load` event). */
  drawImage: () => void;
  /** Reports the first image as shown on the screen (an Element Timing entry). */
  showImage: () => void;
  /** Runs the frames and timers due. */
  flush: () => Promise<void>;
  /** The most preloads one frame or timer started (a long task on a slow phone if several). */
  mostPreloadsInOneTask: () => number;
  /** The boxes that wait for the picture (`data-defer="picture"`), with what was put in them. */
  pictureBoxes: WaitingBox[];
}

/** A box that waits for the picture, as share-image.tsx renders it. */
interface WaitingBox {
  dataset: Record<string, string>;
  firstChild: object | null;
  /** What was put in it: the image's properties. */
  children: Record<string, unknown>[];
  append: (child: Record<string, unknown>) => void;
}

function waitingBox(id: string): WaitingBox {
  const box: WaitingBox = {
    dataset: {
      defer: 'picture',
      src: `/media/${id}/750.webp`,
      srcset: `/media/${id}/320.webp 320w`,
      sizes: '33vw',
    },
    firstChild: null,
    children: [],
    append: (child) => {
      box.children.push(child);
      box.firstChild = child;
    },
  };
  return box;
}

/** Runs a page's boot script against a stand-in document with one image still loading. */
function runBoot(
  script: string,
  {
    imageComplete = false,
    startFails = false,
    decode,
    elementTiming = false,
  }: {
    imageComplete?: boolean;
    startFails?: boolean;
    decode?: () => Promise<void>;
    /** The browser has Element Timing, and the image asks for it. */
    elementTiming?: boolean;
  } = {},
): Run {
  const steps: string[] = [];
  const due: (() => void)[] = [];
  const imageListeners: (() => void)[] = [];
  const observers: { report: (entries: { element: unknown }[]) => void; on: boolean }[] = [];
  const code = /^<script type="module">(.*)<\/script>$/s.exec(script)?.[1] ?? '';
  const pictureBoxes = [waitingBox('a'), waitingBox('b')];
  const document = {
    visibilityState: 'visible',
    head: { append: (link: { href: string }) => steps.push(`preload ${link.href}`) },
    createElement: (tag: string) => {
      if (tag === 'img') steps.push('image');
      return {};
    },
    querySelector: () => image,
    querySelectorAll: (selector: string) =>
      selector === '[data-defer="picture"]' ? pictureBoxes : [],
  };
  const image = {
    complete: imageComplete,
    decode,
    getAttribute: (name: string) => (elementTiming && name === 'elementtiming' ? 'first' : null),
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'load') imageListeners.push(listener);
    },
  };
  /** Element Timing's observer: entries reach it when `showImage` says the image is shown. */
  class PerformanceObserver {
    static supportedEntryTypes = ['element', 'largest-contentful-paint'];
    private readonly observer;
    constructor(callback: (list: unknown, observer: PerformanceObserver) => void) {
      this.observer = {
        on: false,
        report: (entries: { element: unknown }[]) => {
          callback({ getEntries: () => entries }, this);
        },
      };
      observers.push(this.observer);
    }
    observe({ type }: { type: string }) {
      if (type === 'element') this.observer.on = true;
    }
    disconnect() {
      this.observer.on = false;
    }
  }
  const load = (url: string) => {
    steps.push(`import ${url}`);
    return Promise.resolve({
      startPage: (startApp: () => Promise<unknown>) => {
        steps.push('startPage');
        if (startFails) throw new Error('a bug in the start-up script');
        void startApp();
      },
    });
  };
  // The script is a module: `import(` is the one thing a script in a context cannot say.
  runInNewContext(code.replace(/\bimport\(/g, 'load('), {
    load,
    document,
    Promise,
    JSON,
    Object,
    ...(elementTiming ? { PerformanceObserver } : {}),
    requestAnimationFrame: (run: () => void) => due.push(run),
    setTimeout: (run: () => void, ms = 0) => {
      if (ms < 1000) due.push(run);
    },
  });
  const preloads = () => steps.filter((step) => step.startsWith('preload ')).length;
  let most = 0;
  return {
    steps,
    drawImage: () => {
      for (const listener of imageListeners) listener();
    },
    showImage: () => {
      for (const observer of observers) {
        if (observer.on) observer.report([{ element: {} }, { element: image }]);
      }
    },
    flush: async () => {
      for (let round = 0; round < 50; round += 1) {
        for (const run of due.splice(0)) {
          const before = preloads();
          run();
          most = Math.max(most, preloads() - before);
        }
        await Promise.resolve();
      }
    },
    mostPreloadsInOneTask: () => most,
    pictureBoxes,
  };
}

describe('pageAssets', () => {
  it('inlines the page’s styles and, after the first paint, preloads every chunk, then imports the entry', async () => {
    const assets = pageAssets(build, modules, '/base/');
    expect(assets.head).toContain('<style>body{margin:0}\nmain{color:red}</style>');
    const run = runBoot(assets.scripts);
    expect(run.steps).toEqual([]);
    await run.flush();
    expect(run.steps.at(-1)).toBe('import /base/assets/index.js');
    expect(run.steps).toContain('preload /base/assets/react.js');
    expect(run.steps).not.toContain('startPage');
  });

  it('with a start module: once the first image is drawn, that module’s chunks only, then the app when it asks', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    const run = runBoot(assets.scripts);
    await run.flush();
    expect(run.steps, 'nothing before the first image').toEqual([]);
    run.drawImage();
    await run.flush();
    const started = run.steps.indexOf('startPage');
    expect(run.steps.slice(0, started).filter((step) => step !== 'image')).toEqual([
      'preload /base/assets/share-pages.js',
      'preload /base/assets/share-base.js',
      'preload /base/assets/start-base.js',
      'import /base/assets/share-pages.js',
    ]);
    // The app, once started: what the start did not load, then the entry.
    const app = run.steps.slice(started + 1);
    expect(app).toContain('preload /base/assets/react.js');
    expect(app).toContain('preload /base/assets/share-route-page.js');
    expect(app).not.toContain('preload /base/assets/start-base.js');
    expect(app.at(-1)).toBe('import /base/assets/index.js');
    expect(run.mostPreloadsInOneTask(), 'one request started per task').toBe(1);
  });

  it('with a start module: not before the loaded image is decoded, so it is drawn first', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    let decoded = () => {};
    const run = runBoot(assets.scripts, {
      decode: () =>
        new Promise<void>((resolve) => {
          decoded = resolve;
        }),
    });
    run.drawImage();
    await run.flush();
    expect(run.steps, 'loaded, not yet decoded').toEqual([]);
    decoded();
    await run.flush();
    expect(run.steps).toContain('startPage');
  });

  it('with a start module and Element Timing: not before the image is reported on the screen', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    const run = runBoot(assets.scripts, { elementTiming: true, decode: () => Promise.resolve() });
    run.drawImage();
    await run.flush();
    expect(run.steps, 'loaded and decoded, its frame not shown yet').toEqual([]);
    run.showImage();
    await run.flush();
    expect(run.steps).toContain('startPage');
    expect(run.steps.filter((step) => step === 'startPage')).toHaveLength(1);
    run.showImage();
    await run.flush();
    expect(
      run.steps.filter((step) => step === 'startPage'),
      'once',
    ).toHaveLength(1);
  });

  it('with a start module: the images that wait for the picture come once it is shown, before any chunk', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    const run = runBoot(assets.scripts, { elementTiming: true, decode: () => Promise.resolve() });
    run.drawImage();
    await run.flush();
    expect(
      run.pictureBoxes.map((box) => box.children.length),
      'not before it is shown',
    ).toEqual([0, 0]);
    run.showImage();
    await run.flush();
    expect(run.steps.slice(0, 3)).toEqual([
      'image',
      'image',
      'preload /base/assets/share-pages.js',
    ]);
    // As deferred-images.ts makes them: the box keeps the name, sizes and srcset before src.
    const [first] = run.pictureBoxes[0]?.children ?? [];
    expect(first).toEqual({
      alt: '',
      decoding: 'async',
      draggable: false,
      sizes: '33vw',
      srcset: '/media/a/320.webp 320w',
      src: '/media/a/750.webp',
    });
    expect(Object.keys(first ?? {})).toEqual([
      'alt',
      'decoding',
      'draggable',
      'sizes',
      'srcset',
      'src',
    ]);
    // A second report (or the 3 s fallback) puts nothing in twice.
    run.showImage();
    await run.flush();
    expect(run.pictureBoxes.map((box) => box.children.length)).toEqual([1, 1]);
  });

  it('with a start module and the image loaded before the script runs: still not before it is shown', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    const run = runBoot(assets.scripts, {
      imageComplete: true,
      elementTiming: true,
      decode: () => Promise.resolve(),
    });
    await run.flush();
    expect(run.steps, 'loaded, not yet shown').toEqual([]);
    run.showImage();
    await run.flush();
    expect(run.steps).toContain('startPage');
  });

  it('with a start module and the image already drawn: starts after the next frame', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    const run = runBoot(assets.scripts, { imageComplete: true });
    await run.flush();
    expect(run.steps).toContain('startPage');
  });

  it('with a start module that fails: starts the app as any page does', async () => {
    const assets = pageAssets(build, modules, '/base/', 'src/app/routes/share-pages.tsx');
    const run = runBoot(assets.scripts, { imageComplete: true, startFails: true });
    await run.flush();
    expect(run.steps).toContain('startPage');
    expect(run.steps.at(-1)).toBe('import /base/assets/index.js');
  });

  it('keeps `</script>` out of its script', () => {
    const assets = pageAssets(
      {
        ...build,
        manifest: {
          ...manifest,
          'index.html': { file: 'assets/</script>.js', isEntry: true },
        },
      },
      [],
      '/base/',
    );
    expect(assets.scripts.match(/<\/script>/g)).toHaveLength(1);
  });
});
