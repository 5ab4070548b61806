import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The graph of imports between the folders of an app's `src/`, for
 * tests/repo/folder-cycles.test.ts, and between its files (`fileGraph`), for
 * tests/repo/file-cycles.test.ts. ESLint's `import-x/no-cycle` follows files, and skips type
 * imports; this follows every import a source file makes (`import type` and `export type … from`
 * included, and `import()`), as TypeScript's own scanner (`ts.preProcessFile`) reads them, so a
 * circle of folders closed by a type alone is seen too.
 */
export const ROOT = join(import.meta.dirname, '../..');

/** A file → file import that crosses folders. */
export interface Edge {
  from: string;
  to: string;
}

export interface FolderGraph {
  /** Source files read (repository-relative). */
  files: string[];
  /** folder → folder → the file edges behind that folder edge. */
  edges: Map<string, Map<string, Edge[]>>;
}

/** One strongly connected set of folders (more than one): a folder cycle. */
export interface FolderCycle {
  folders: string[];
  /** One shortest circle through the set, as folders: `a → b → a`. */
  circle: string[];
  /** Every file edge between two folders of the set. */
  edges: Edge[];
}

const SOURCE = /\.(ts|tsx)$/;
const TEST = /\.test\.(ts|tsx)$/;
const EXTENSIONS = ['', '.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

/** Every source file under `directory` (absolute paths), tests aside. */
export function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) ? [path] : [];
  });
}

/** The file a relative specifier names, or undefined (a stylesheet, an asset, a package). */
function resolveSpecifier(importer: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(importer), specifier.replace(/\?.*$/, ''));
  const candidates = [
    ...EXTENSIONS.map((extension) => base + extension),
    // A `.js` specifier naming a `.ts` file.
    ...(/\.js$/.test(base) ? [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx')] : []),
  ];
  return candidates.find(
    (path) => SOURCE.test(path) && existsSync(path) && statSync(path).isFile(),
  );
}

/** Every specifier a source file imports or re-exports, types and `import()` included. */
export function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((file) => file.fileName);
}

/**
 * Builds the folder graph of `src` (repository-relative, or absolute). `folderOf` names a file's
 * folder from its path relative to `src`.
 */
export function folderGraph(src: string, folderOf: (path: string) => string): FolderGraph {
  const root = resolve(ROOT, src);
  const files = sourceFiles(root);
  const edges = new Map<string, Map<string, Edge[]>>();
  const name = (path: string) => relative(ROOT, path).split(sep).join('/');
  const folder = (path: string) => folderOf(relative(root, path).split(sep).join('/'));
  for (const file of files) {
    for (const specifier of importsOf(readFileSync(file, 'utf8'))) {
      const target = resolveSpecifier(file, specifier);
      if (target === undefined || !target.startsWith(root + sep)) continue;
      const [from, to] = [folder(file), folder(target)];
      if (from === to) continue;
      const row = edges.get(from) ?? new Map<string, Edge[]>();
      edges.set(from, row);
      row.set(to, [...(row.get(to) ?? []), { from: name(file), to: name(target) }]);
    }
  }
  return { files: files.map(name), edges };
}

/**
 * The graph of imports between the files of `src`: the folder graph with each file a folder of its
 * own (named by its path relative to `src`), so `folderCycles` finds the circles of files.
 */
export function fileGraph(src: string): FolderGraph {
  return folderGraph(src, (path) => path);
}

/** The first directory under `src/` (a file at the top is a node of its own). */
export function firstLevel(path: string): string {
  return path.split('/')[0] ?? path;
}

/** The web's folders: each feature under `features/` is a folder of its own. */
export function webFolder(path: string): string {
  const [top, feature] = path.split('/');
  return top === 'features' && feature !== undefined && path.includes('/', 'features/'.length)
    ? `features/${feature}`
    : firstLevel(path);
}

export function folderEdgeCount(graph: FolderGraph): number {
  return [...graph.edges.values()].reduce((count, row) => count + row.size, 0);
}

/** Tarjan's strongly connected components, those of more than one folder. */
export function folderCycles(graph: FolderGraph): FolderCycle[] {
  const next = (folder: string) => [...(graph.edges.get(folder)?.keys() ?? [])].sort();
  const nodes = [
    ...new Set([
      ...graph.edges.keys(),
      ...[...graph.edges.values()].flatMap((row) => [...row.keys()]),
    ]),
  ].sort();
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);

  return components
    .map((folders) => {
      const inside = new Set(folders);
      const edges = folders.flatMap((from) =>
        next(from)
          .filter((to) => inside.has(to))
          .flatMap((to) => graph.edges.get(from)?.get(to) ?? []),
      );
      return { folders, circle: shortestCircle(folders[0] ?? '', inside, next), edges };
    })
    .sort((a, b) => a.folders.join().localeCompare(b.folders.join()));
}

/** The shortest way from `start` back to itself inside the set (breadth first). */
function shortestCircle(
  start: string,
  inside: Set<string>,
  next: (folder: string) => string[],
): string[] {
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const folder = queue.shift() ?? start;
    for (const target of next(folder).filter((to) => inside.has(to))) {
      if (target === start) {
        const way: string[] = [];
        for (let at = folder; at !== start; at = cameFrom.get(at) ?? start) way.unshift(at);
        return [start, ...way, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, folder);
        queue.push(target);
      }
    }
  }
  return [start];
}

/** A cycle as a reader can act on it: the folders, one circle, and the file edges closing it. */
export function describeCycle(cycle: FolderCycle): string {
  return [
    `folders ${cycle.folders.join(', ')}: ${cycle.circle.join(' → ')}`,
    ...cycle.edges.map((edge) => `  ${edge.from} → ${edge.to}`),
  ].join('\n');
}
