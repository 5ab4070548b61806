import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileGraph, folderCycles, type FolderCycle } from './folder-graph.ts';

/**
 * No file of the web, the server or the contract imports itself again, however long the way round
 * (docs/architecture.md: "no import cycles", "no cycles, between files or folders"). ESLint's
 * `import-x/no-cycle` follows files but skips type imports: a type alone tied 20 files of the web's
 * features/share in one circle (loader → parts → views → app prompt → WeChat → head → loader), and
 * on the server the stand-in's points ledger and its context (stand-in/stand-in-context.ts) named
 * each other's types. This reads every import, types and `import()` included, with the graph of
 * folder-cycles.test.ts (folder-graph.ts), each file a node of its own; tests aside, as there.
 * Types two places share go in a leaf module that imports neither (features/share/share-types.ts),
 * and routes in a file apart from what they serve (stand-in/points-ledger-routes.ts).
 */
const TREES = [
  { src: 'apps/web/src', moreThan: 100 },
  { src: 'apps/server/src', moreThan: 100 },
  { src: 'packages/contract/src', moreThan: 20 },
];

/**
 * A circle as a reader can act on it: its files in order, back to the first. Where more files are
 * tied together than the shortest circle shows, the others follow, so none is missed.
 */
function describeFileCycle(src: string, cycle: FolderCycle): string {
  const circle = cycle.circle.map((file) => `${src}/${file}`).join('\n  → ');
  const others = cycle.folders.filter((file) => !cycle.circle.includes(file));
  if (others.length === 0) return `${cycle.folders.length} files in a circle:\n  ${circle}`;
  const also = others.map((file) => `\n  also in circles with them: ${src}/${file}`).join('');
  return `${cycle.folders.length} files in circles, the shortest:\n  ${circle}${also}`;
}

describe('file cycles', () => {
  let scratch: string | undefined;
  afterEach(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
    scratch = undefined;
  });

  it('find a circle of files closed by a type import alone, and name it', () => {
    scratch = mkdtempSync(join(tmpdir(), 'file-cycles-'));
    const files = {
      'loader.ts': "import { part } from './views/parts';\nexport type Loaded = string;\n",
      'views/parts.ts': "import type { Loaded } from '../loader';\nexport const part = 1;\n",
      'views/leaf.ts': "import { part } from './parts';\nexport const leaf = part;\n",
    };
    for (const [path, source] of Object.entries(files)) {
      mkdirSync(dirname(join(scratch, path)), { recursive: true });
      writeFileSync(join(scratch, path), source);
    }
    const cycles = folderCycles(fileGraph(scratch));
    expect(cycles.map((cycle) => cycle.circle)).toEqual([
      ['loader.ts', 'views/parts.ts', 'loader.ts'],
    ]);
    expect(describeFileCycle('src', cycles[0] as FolderCycle)).toBe(
      '2 files in a circle:\n  src/loader.ts\n  → src/views/parts.ts\n  → src/loader.ts',
    );
  });

  it('name every file tied in, beyond the shortest circle', () => {
    const cycle = {
      folders: ['context.ts', 'ledger.ts', 'token-routes.ts'],
      circle: ['context.ts', 'ledger.ts', 'context.ts'],
      edges: [],
    };
    expect(describeFileCycle('src', cycle)).toBe(
      '3 files in circles, the shortest:\n  src/context.ts\n  → src/ledger.ts\n  → src/context.ts' +
        '\n  also in circles with them: src/token-routes.ts',
    );
  });

  for (const { src, moreThan } of TREES) {
    it(`leave no circle between the files of ${src}`, () => {
      const graph = fileGraph(src);
      expect(graph.files.length).toBeGreaterThan(moreThan);
      expect(
        folderCycles(graph).map((cycle) => describeFileCycle(src, cycle)),
        'files that import each other, type imports included: move what both need into a leaf ' +
          'module, or to where it belongs (docs/architecture.md)',
      ).toEqual([]);
    });
  }
});
