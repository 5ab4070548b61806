import type { Plugin } from 'vite';

/**
 * Keeps the code a share page needs before React out of every chunk that imports React
 * (docs/decisions/0031-share-pages-start-without-react.md). Rolldown's groups put a module where
 * its test says, and a chunk imports every chunk its modules use: a React-free module in the
 * shell (the contract's paths, the flexible layout) would make whatever imports it load the
 * shell, and React with it. So the modules the `roots` reach statically go to chunks of their
 * own, by who starts with them:
 *
 * - `start-base`: what every page starts with (the entry's closure), so no page loads more;
 * - `share-base`: what a share page starts with (its route's closure), for the same reason;
 * - `app-opening`: what other pages start with too (the website's stores and the company's facts);
 * - `app-taps`: the rest, which loads after the page has started (the tap code and the funnel).
 *
 * None of them imports React, as no module in them does: the test of the build says so
 * (scripts/check-size.mjs).
 */
export interface ReactFreeChunks {
  plugin: Plugin;
  /** The chunk a module belongs to, or `undefined` for the other groups to decide. */
  chunkOf: (id: string) => ReactFreeChunkName | undefined;
}

export type ReactFreeChunkName = 'start-base' | 'share-base' | 'app-opening' | 'app-taps';

export function reactFreeChunks({
  roots,
  entry,
  shareRoute,
  routes,
}: {
  /** The React-free modules a share page needs before React (each with what it imports). */
  roots: RegExp;
  /** The app's entry: what every page starts with. */
  entry: RegExp;
  /** The share pages' route module: what a share page starts with. */
  shareRoute: RegExp;
  /** Every route module: what the other pages start with. */
  routes: RegExp;
}): ReactFreeChunks {
  const imports = new Map<string, readonly string[]>();
  let chunks: Map<string, ReactFreeChunkName> | undefined;

  function closure(starts: Iterable<string>): Set<string> {
    const seen = new Set<string>();
    const next = [...starts];
    for (let id = next.pop(); id !== undefined; id = next.pop()) {
      if (seen.has(id)) continue;
      seen.add(id);
      next.push(...(imports.get(id) ?? []));
    }
    return seen;
  }

  function assign(): Map<string, ReactFreeChunkName> {
    const ids = [...imports.keys()];
    const reactFree = closure(ids.filter((id) => roots.test(id)));
    const everyPage = closure(ids.filter((id) => entry.test(id)));
    const sharePage = closure(ids.filter((id) => shareRoute.test(id)));
    const otherPages = closure(ids.filter((id) => routes.test(id) && !shareRoute.test(id)));
    const assigned = new Map<string, ReactFreeChunkName>();
    for (const id of reactFree) {
      // Libraries stay with the bundler's own choice (a React-free one goes in a React-free chunk
      // anyway); the preload helper Vite adds to a module with a dynamic import goes with it.
      if (id.includes('node_modules')) continue;
      if (everyPage.has(id)) assigned.set(id, 'start-base');
      else if (otherPages.has(id)) assigned.set(id, 'app-opening');
      else if (sharePage.has(id)) assigned.set(id, 'share-base');
      else assigned.set(id, 'app-taps');
    }
    return assigned;
  }

  return {
    plugin: {
      name: 'react-free-chunks',
      buildStart() {
        imports.clear();
        chunks = undefined;
      },
      buildEnd() {
        for (const id of this.getModuleIds()) {
          imports.set(id, this.getModuleInfo(id)?.importedIds ?? []);
        }
      },
    },
    chunkOf: (id) => {
      chunks ??= assign();
      return chunks.get(id);
    },
  };
}
