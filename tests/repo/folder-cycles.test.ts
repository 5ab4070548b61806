import { describe, expect, it } from 'vitest';
import {
  describeCycle,
  firstLevel,
  folderCycles,
  folderGraph,
  importsOf,
  webFolder,
} from './folder-graph.ts';

/**
 * No two folders of an app lean on each other, however long the way round (docs/architecture.md:
 * "no cycles, between files or folders"). A folder is the first level under `src/` (a file at the
 * top is a node of its own), and on the web each `features/<name>/` is one. Every source file
 * counts, tests aside (a test may look across folders); every import counts, types and `import()`
 * included, which ESLint's `import-x/no-cycle` does not see.
 *
 * KNOWN lists the cycles not yet taken apart, each as its sorted folders: a new cycle fails, and
 * so does a listed one that no longer exists, so the list only shrinks.
 */
const APPS = [
  {
    name: 'server',
    src: 'apps/server/src',
    folderOf: firstLevel,
    known: [] as string[][],
  },
  { name: 'web', src: 'apps/web/src', folderOf: webFolder, known: [] as string[][] },
];

describe('folder cycles', () => {
  it('read every kind of import, types and import() included', () => {
    const source = [
      "import type { A } from './a.ts';",
      'import {',
      '  b,',
      '  type C,',
      "} from '../b';",
      "export type { D } from './d.ts';",
      "export * from './e';",
      "const f = await import('./f.ts');",
      "type G = typeof import('./g');",
    ].join('\n');
    expect(importsOf(source)).toEqual(['./a.ts', '../b', './d.ts', './e', './f.ts', './g']);
  });

  it('name the folders of a feature on the web, and the first level elsewhere', () => {
    expect(webFolder('features/share/share-types.ts')).toBe('features/share');
    expect(webFolder('features/share/poster/poster-action.tsx')).toBe('features/share');
    expect(webFolder('lib/in-app/api-client.ts')).toBe('lib');
    expect(webFolder('build-constants.d.ts')).toBe('build-constants.d.ts');
    expect(firstLevel('designs/design-repository.ts')).toBe('designs');
    expect(firstLevel('app.ts')).toBe('app.ts');
  });

  it('find a circle and the file edges that close it, a type import included', () => {
    const edge = (from: string, to: string) => ({ from: `${from}/x.ts`, to: `${to}/y.ts` });
    const graph = {
      files: [],
      edges: new Map([
        ['a', new Map([['b', [edge('a', 'b')]]])],
        ['b', new Map([['c', [edge('b', 'c')]]])],
        [
          'c',
          new Map([
            ['a', [edge('c', 'a')]],
            ['d', [edge('c', 'd')]],
          ]),
        ],
      ]),
    };
    expect(folderCycles(graph)).toEqual([
      {
        folders: ['a', 'b', 'c'],
        circle: ['a', 'b', 'c', 'a'],
        edges: [edge('a', 'b'), edge('b', 'c'), edge('c', 'a')],
      },
    ]);
  });

  for (const app of APPS) {
    it(`leave no circle between the folders of ${app.src}`, () => {
      const graph = folderGraph(app.src, app.folderOf);
      expect(graph.files.length).toBeGreaterThan(100);
      const cycles = folderCycles(graph);
      const key = (folders: string[]) => folders.join(', ');
      const known = new Set(app.known.map((folders) => key([...folders].sort())));
      const found = new Set(cycles.map((cycle) => key(cycle.folders)));
      const unexpected = cycles.filter((cycle) => !known.has(key(cycle.folders)));
      expect(
        unexpected.map(describeCycle),
        `${app.name}: folders that import each other (move the edge that closes the circle where it belongs)`,
      ).toEqual([]);
      expect(
        [...known].filter((cycle) => !found.has(cycle)),
        `${app.name}: known cycles that are gone: take them off the list`,
      ).toEqual([]);
    });
  }
});
