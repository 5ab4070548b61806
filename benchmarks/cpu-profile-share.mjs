// What share of a process's busy CPU a part of its code takes, read from a V8 CPU profile
// (`node --cpu-prof`): bench:server's second measure of what the metrics cost. Unlike comparing
// two servers (whose twins differ by several per cent on a shared machine), it is a ratio within
// one process, so whatever else the machine does weighs on both sides of it alike. It counts the
// part's own work (and what it calls), not what it adds elsewhere (a little garbage to collect).
import { readFile } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import { fileURLToPath } from 'node:url';

/**
 * Reads `profilePath` and returns `{ share, busyMs, parts }`: the share of busy samples (not idle)
 * whose stack, read from the leaf up, reaches a frame of the part (`isPart({ url, source })`,
 * `source` the original file from the bundle's source map) before a frame where the part's caller
 * takes over again (`isBoundary`), e.g. Fastify's hook runner calling the next hook.
 */
export async function cpuShareOf(profilePath, { isPart, isBoundary }) {
  const profile = JSON.parse(await readFile(profilePath, 'utf8'));
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parents.set(child, node.id);

  const maps = new Map();
  async function originalSource({ url, lineNumber, columnNumber }) {
    if (!url.startsWith('file://') || lineNumber < 0) return undefined;
    if (!maps.has(url)) {
      const text = await readFile(`${fileURLToPath(url)}.map`, 'utf8').catch(() => undefined);
      maps.set(url, text === undefined ? undefined : new SourceMap(JSON.parse(text)));
    }
    return maps.get(url)?.findEntry(lineNumber, columnNumber)?.originalSource;
  }

  const verdicts = new Map();
  async function verdictOf(nodeId) {
    if (!verdicts.has(nodeId)) {
      const frame = nodes.get(nodeId).callFrame;
      const place = { url: frame.url, source: await originalSource(frame) };
      verdicts.set(
        nodeId,
        isPart(place) ? (place.source ?? frame.url) : isBoundary(place) ? 'boundary' : undefined,
      );
    }
    return verdicts.get(nodeId);
  }

  let busy = 0;
  let part = 0;
  const parts = new Map();
  for (const [index, nodeId] of profile.samples.entries()) {
    const elapsed = profile.timeDeltas[index] ?? 0;
    if (nodes.get(nodeId).callFrame.functionName === '(idle)') continue;
    busy += elapsed;
    for (let current = nodeId; current !== undefined; current = parents.get(current)) {
      const verdict = await verdictOf(current);
      if (verdict === 'boundary') break;
      if (verdict !== undefined) {
        part += elapsed;
        parts.set(verdict, (parts.get(verdict) ?? 0) + elapsed);
        break;
      }
    }
  }
  return { share: busy === 0 ? 0 : part / busy, busyMs: busy / 1000, parts };
}
