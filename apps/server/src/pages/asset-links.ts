import type { BuildManifest, WebBuild } from './web-build.ts';

function staticClosure(manifest: BuildManifest, keys: readonly string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return seen;
}

/**
 * What a rendered page needs in its <head>: every stylesheet it uses inline (the entry's and its
 * route's), so the first paint waits for no request, and `modulepreload` links for its route's
 * chunks beyond what index.html already loads, so they download in parallel with the entry.
 */
export function pageHead(
  build: Pick<WebBuild, 'manifest' | 'entryStyles' | 'styles'>,
  modules: readonly string[],
  base: string,
  styleNonce: string,
): string {
  const { manifest } = build;
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loaded = staticClosure(manifest, entries);
  const chunks = [...staticClosure(manifest, modules)].filter((key) => !loaded.has(key));
  const styleFiles = new Set([
    ...build.entryStyles,
    ...chunks.flatMap((key) => manifest[key]?.css ?? []),
  ]);
  const inline: string[] = [];
  const linked: string[] = [];
  for (const file of styleFiles) {
    const css = build.styles.get(file);
    if (css === undefined) linked.push(`<link rel="stylesheet" crossorigin href="${base}${file}">`);
    else inline.push(css);
  }
  const scripts = chunks.flatMap((key) => manifest[key]?.file ?? []);
  return [
    inline.length > 0 ? `<style nonce="${styleNonce}">${inline.join('\n')}</style>` : '',
    ...linked,
    ...scripts.map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
  ].join('');
}
