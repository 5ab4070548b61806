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
 */
export function pageAssets(
  build: Pick<WebBuild, 'manifest' | 'entryStyles' | 'styles'>,
  modules: readonly string[],
  base: string,
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
  const preloads = [...entryChunks.filter((key) => key !== entry), ...pageChunks].map(url);
  // One preload per task: starting a request costs the main thread a little each, and a dozen at
  // once would hold it long enough to delay a tap. (A hidden tab, where timers are slowed to one a
  // second, does them all at once.)
  const boot = entry
    ? `const p=${JSON.stringify(preloads)},v=()=>document.visibilityState==="hidden";function s(){const h=p.shift();if(h===undefined){import(${JSON.stringify(url(entry))});return}const l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;document.head.append(l);v()?s():setTimeout(s,0)}v()?s():requestAnimationFrame(()=>{setTimeout(s,0)})`
    : '';
  return {
    head: [inline.length > 0 ? `<style>${inline.join('\n')}</style>` : '', ...linked].join(''),
    scripts: boot ? `<script type="module">${boot.replace(/</g, '\\u003c')}</script>` : '',
  };
}
