import type { Plugin, UserConfig } from 'vite';

/**
 * Vite preloads what a dynamically imported chunk imports along with it, from a list of files in
 * the importing chunk. Those lists also name what the importing chunk already loaded (React, the
 * shell, …), which the browser never fetches again: bytes every page start carries for nothing.
 * This drops them: a dynamic import lists only the chunks its importer did not load.
 */
export function preloadLists(): {
  plugin: Plugin;
  modulePreload: NonNullable<UserConfig['build']>['modulePreload'];
} {
  const imports = new Map<string, readonly string[]>();

  function loadedWith(file: string): Set<string> {
    const seen = new Set<string>();
    const next = [file];
    for (let current = next.pop(); current !== undefined; current = next.pop()) {
      if (seen.has(current)) continue;
      seen.add(current);
      next.push(...(imports.get(current) ?? []));
    }
    return seen;
  }

  return {
    plugin: {
      name: 'preload-lists',
      // Before Vite writes the lists (its import analysis runs after the app's plugins).
      generateBundle(_options, bundle) {
        imports.clear();
        for (const [file, output] of Object.entries(bundle)) {
          if (output.type === 'chunk') imports.set(file, output.imports);
        }
      },
    },
    modulePreload: {
      resolveDependencies: (_file, deps, { hostId, hostType }) => {
        if (hostType !== 'js' || !imports.has(hostId)) return deps;
        const loaded = loadedWith(hostId);
        return deps.filter((dep) => !loaded.has(dep));
      },
    },
  };
}
