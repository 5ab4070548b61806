import type { BuildManifest } from './web-build.ts';

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
 * The chunks and styles a rendered page needs beyond what index.html already loads (the entry and
 * its static imports), as `<link>` tags: the page's styles apply at first paint and its code
 * downloads in parallel with the entry instead of after it.
 */
export function pageAssetLinks(
  manifest: BuildManifest,
  modules: readonly string[],
  base: string,
): string {
  const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loaded = staticClosure(manifest, entries);
  const chunks = [...staticClosure(manifest, modules)].filter((key) => !loaded.has(key));
  const styles = new Set(chunks.flatMap((key) => manifest[key]?.css ?? []));
  const scripts = new Set(chunks.flatMap((key) => manifest[key]?.file ?? []));
  return [
    ...[...styles].map((file) => `<link rel="stylesheet" crossorigin href="${base}${file}">`),
    ...[...scripts].map((file) => `<link rel="modulepreload" crossorigin href="${base}${file}">`),
  ].join('');
}
