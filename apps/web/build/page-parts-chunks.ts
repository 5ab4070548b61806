import type { Plugin } from 'vite';

/**
 * Keeps the code a page with parts starts with in few files. A share page starts with its route's
 * chunk and one part (share-parts.tsx: a kind's view, or the failure states), which the parts
 * module imports dynamically. Rolldown splits code by the set of chunks that use it, without
 * knowing that the route's chunk is always there before a part: what the page shares with a part,
 * or two parts with each other, would become a dozen small files, and a phone pays for each (a
 * request, and gzip starting afresh). This group puts that code in one chunk the route's imports:
 * each part's chunk keeps only what that part alone uses. Code another route (or the entry) also
 * starts with stays out, so no other page loads the group.
 */
export interface PagePartsChunks {
  plugin: Plugin;
  /** The modules of the page's own chunk: for a `codeSplitting` group's `test`. */
  test: (id: string) => boolean;
}

export function pagePartsChunks({
  route,
  parts,
  entry,
  routes,
  ownCode,
  demoOnly,
}: {
  /** The page's route module. */
  route: RegExp;
  /** The module whose dynamic imports are the page's parts. */
  parts: RegExp;
  /** The app's entry, and every route module: what other pages start with. */
  entry: RegExp;
  routes: RegExp;
  /** The app's own modules (not libraries, which have groups of their own). */
  ownCode: RegExp;
  /** Code only a demo server loads, after a page has started (the bridge simulator). */
  demoOnly: RegExp;
}): PagePartsChunks {
  const imports = new Map<string, readonly string[]>();
  const dynamicImports = new Map<string, readonly string[]>();
  let group: Set<string> | undefined;

  /**
   * The modules `roots` import, themselves included: statically, or with `dynamic` their later
   * code too; a module `stop` names is neither taken nor followed.
   */
  function closure(
    roots: Iterable<string>,
    {
      dynamic = false,
      stop = () => false,
    }: { dynamic?: boolean; stop?: (id: string) => boolean } = {},
  ): Set<string> {
    const seen = new Set<string>();
    const next = [...roots];
    for (let id = next.pop(); id !== undefined; id = next.pop()) {
      if (seen.has(id) || stop(id)) continue;
      seen.add(id);
      next.push(...(imports.get(id) ?? []), ...(dynamic ? (dynamicImports.get(id) ?? []) : []));
    }
    return seen;
  }

  function computeGroup(): Set<string> {
    const ids = [...imports.keys()];
    const pageRoots = ids.filter((id) => route.test(id));
    const partRoots = ids
      .filter((id) => parts.test(id))
      .flatMap((id) => dynamicImports.get(id) ?? []);
    // What other pages load, at start or later, short of this page's route: none of it may end
    // up in this page's chunk. The demo's simulator (`demoOnly`) may: it comes after a page has
    // started, on a demo server only, and the page's chunk is then what it loads.
    const elsewhere = closure(
      ids.filter((id) => entry.test(id) || (routes.test(id) && !route.test(id))),
      { dynamic: true, stop: (id) => route.test(id) || demoOnly.test(id) },
    );
    const page = closure(pageRoots);
    const users = new Map<string, number>();
    for (const part of partRoots) {
      for (const id of closure([part])) users.set(id, (users.get(id) ?? 0) + 1);
    }
    const members = new Set<string>();
    for (const id of new Set([...page, ...users.keys()])) {
      // The route module stays its chunk's entry (the build manifest names it), a part's module
      // its own chunk's; what one part alone uses stays with it.
      if (pageRoots.includes(id) || partRoots.includes(id)) continue;
      if (!ownCode.test(id) || elsewhere.has(id)) continue;
      if (page.has(id) || (users.get(id) ?? 0) >= 2) members.add(id);
    }
    return members;
  }

  return {
    plugin: {
      name: 'page-parts-chunks',
      buildStart() {
        imports.clear();
        dynamicImports.clear();
        group = undefined;
      },
      buildEnd() {
        for (const id of this.getModuleIds()) {
          const info = this.getModuleInfo(id);
          imports.set(id, info?.importedIds ?? []);
          dynamicImports.set(id, info?.dynamicallyImportedIds ?? []);
        }
      },
    },
    test: (id) => {
      group ??= computeGroup();
      return group.has(id);
    },
  };
}
