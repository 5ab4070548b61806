import type { BuildManifest } from './web-build.ts';

/**
 * The chunks and styles a rendered page needs beyond the entry (which index.html already loads),
 * as `<link>` tags: the page's styles apply at first paint and its code downloads in parallel with
 * the entry instead of after it.
 */
export function pageAssetLinks(
  manifest: BuildManifest,
  modules: readonly string[],
  base: string,
): string {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const entryFiles = new Set<string>();
  const visit = (key: string, seen: Set<string>) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) return;
    if (chunk.isEntry) {
      entryFiles.add(chunk.file);
      for (const css of chunk.css ?? []) entryFiles.add(css);
      return;
    }
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported, seen);
  };
  const seen = new Set<string>();
  for (const module of modules) visit(module, seen);
  const href = (file: string) => `${base}${file}`;
  return [
    ...[...styles]
      .filter((file) => !entryFiles.has(file))
      .map((file) => `<link rel="stylesheet" crossorigin href="${href(file)}">`),
    ...[...scripts]
      .filter((file) => !entryFiles.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="${href(file)}">`),
  ].join('');
}
