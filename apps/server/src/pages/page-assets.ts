import type { BuildManifest, WebBuild } from './web-build.ts';

function staticClosure(manifest: BuildManifest, keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...seen];
}

export interface PageAssets {
  /** For <head>: the page's stylesheets, inline, so the first paint waits for no request. */
  head: string;
  /** For the end of <body>: what loads the app once the server's page is on screen. */
  scripts: string;
}

/**
 * The styles and scripts of a rendered page. The server's HTML is the page, so the app's code
 * (React, the router, the route's chunk) starts loading only after the first paint: on a slow
 * network it never competes with the page's own text, styles and first image. The script then
 * preloads every chunk (no waterfall: all start within a few milliseconds) and imports the entry,
 * which hydrates.
 *
 * A page with a `start` module (the share pages: docs/decisions/0031-share-pages-start-without-react.md)
 * waits for its first image to be drawn instead, then imports only that module's chunks, React-free,
 * and calls its `startPage` with the app's start above: the module decides when the app comes.
 * Where the module cannot be had, or fails to start the page, the app starts as on any page (and
 * recovers as any page does).
 */
export function pageAssets(
  build: Pick<WebBuild, 'manifest' | 'entryStyles' | 'styles'>,
  modules: readonly string[],
  base: string,
  start?: string,
): PageAssets {
  const { manifest } = build;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const entryChunks = entry ? staticClosure(manifest, [entry]) : [];
  const pageChunks = staticClosure(manifest, modules).filter((key) => !entryChunks.includes(key));
  const styleFiles = new Set([
    ...build.entryStyles,
    ...pageChunks.flatMap((key) => manifest[key]?.css ?? []),
  ]);
  const inline: string[] = [];
  const linked: string[] = [];
  for (const file of styleFiles) {
    const css = build.styles.get(file);
    if (css === undefined) {
      linked.push(`<link rel="stylesheet" crossorigin href="${base}${file}">`);
      continue;
    }
    inline.push(css);
    // The app loads each chunk's stylesheet with the chunk unless the page already links it. A
    // disabled link says "already here" without a request: its rules are in the inline style.
    // Without it the browser would fetch them again after the first paint and restyle the page.
    linked.push(`<link rel="stylesheet" href="${base}${file}" disabled>`);
  }
  const url = (key: string) => `${base}${manifest[key]?.file ?? ''}`;
  const startChunks = start && manifest[start] ? staticClosure(manifest, [start]) : [];
  const preloads = [...entryChunks.filter((key) => key !== entry), ...pageChunks]
    .filter((key) => !startChunks.includes(key))
    .map(url);
  return {
    head: [inline.length > 0 ? `<style>${inline.join('\n')}</style>` : '', ...linked].join(''),
    scripts: entry
      ? `<script type="module">${bootScript(preloads, url(entry), start && startChunks.length > 0 ? { url: url(start), chunks: startChunks.map(url) } : undefined).replace(/</g, '\\u003c')}</script>`
      : '',
  };
}

/**
 * The inline script that starts a page. `q` preloads a list of chunks one per task (starting a
 * request costs the main thread a little each: five at once held a share page's main thread for
 * 16–54 ms, a long task on a slow phone; a hidden tab, where timers are slowed to one a second,
 * does them all at once), then goes on. `a` starts the app: its chunks through `q`, then the
 * entry; once only, resolving when the entry has run. Without a start module, `a` runs after the
 * first paint. With one, once the page's first image is drawn (or has failed, or after 3 s: the
 * first paint is never held for a script): the start module's chunks go through `q`, then it is
 * imported and given `a`. Drawn means shown on the screen: `load` comes before the picture is
 * decoded and shown, and a script asked for in between shares the slow line with the tiles the
 * picture is shown with (the largest paint then waits for both). Where the browser reports when
 * an element was shown (Element Timing: the image says `elementtiming`), that report, which
 * comes once the frame with the picture is on the screen; elsewhere, decoded and a frame for it
 * and one more. A frame's callbacks alone came 20–40 ms before the frame was shown in Chromium,
 * and Lighthouse then counted the script before the largest paint (issue 41). An image already
 * loaded when the script runs (a fast line: `complete` is true before it is shown) waits the
 * same way. The images that wait for the picture (`data-defer="picture"`: the tiles and the
 * avatar of the first screen) are put in then, before the chunks: on a slow line they would share
 * it with the picture, and Lighthouse counted every request that ended before the picture was
 * shown as part of its largest paint (issue 41, the cabinet). The start module's deferImage finds
 * them filled.
 */
function bootScript(
  preloads: readonly string[],
  entry: string,
  start: { url: string; chunks: readonly string[] } | undefined,
): string {
  const app =
    `const p=${JSON.stringify(preloads)},d=document,v=()=>d.visibilityState==="hidden";let r;` +
    `function l(h){const e=d.createElement("link");e.rel="modulepreload";e.crossOrigin="";e.href=h;d.head.append(e)}` +
    `function q(c,f){(function s(){const h=c.shift();if(h===undefined){f();return}l(h);v()?s():setTimeout(s,0)})()}` +
    `function a(){return r??=new Promise((y,n)=>{q(p,()=>{import(${JSON.stringify(entry)}).then(y,n)})})}`;
  if (!start) return `${app}v()?a():requestAnimationFrame(()=>{setTimeout(a,0)})`;
  return (
    app +
    `let o=0;function g(){if(o++)return;q(${JSON.stringify(start.chunks)},()=>{import(${JSON.stringify(start.url)}).then(m=>m.startPage(a)).catch(a)})}` +
    // The images that wait for the picture: made as deferred-images.ts's load() makes them.
    `const P=()=>{for(const h of d.querySelectorAll('[data-defer="picture"]'))h.firstChild||h.append(Object.assign(d.createElement("img"),{alt:"",decoding:"async",draggable:false,sizes:h.dataset.sizes??"",srcset:h.dataset.srcset??"",src:h.dataset.src??""}))};` +
    `const i=d.querySelector("#root main img"),f=()=>{P();requestAnimationFrame(()=>{setTimeout(g,0)})},` +
    `e=()=>{if(!i.getAttribute("elementtiming")||typeof PerformanceObserver>"u"||!PerformanceObserver.supportedEntryTypes?.includes("element")){requestAnimationFrame(f);return}` +
    `new PerformanceObserver((t,b)=>{if(t.getEntries().some(n=>n.element===i)){b.disconnect();f()}}).observe({type:"element",buffered:true})},` +
    `w=()=>{(i.decode?i.decode():Promise.resolve()).then(e,f)};` +
    `v()?g():i?(i.complete?w():(i.addEventListener("load",w),i.addEventListener("error",f)),setTimeout(f,3e3)):f()`
  );
}
