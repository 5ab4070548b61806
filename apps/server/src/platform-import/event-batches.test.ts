import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { eventBatches, type BatchOrRefusal, type LineCheck } from './event-batches.ts';
import { EVENT_LINE_MAX_BYTES, fileLines } from './event-lines.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function fileOf(text: string | Buffer): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'event-batches-'));
  const file = join(dir, 'events.jsonl');
  await writeFile(file, text);
  return file;
}

/** Keeps each line's `n`; refuses a line whose `n` is negative, at `data.n`. */
function check(value: unknown): LineCheck<number> {
  const n = (value as { n: number }).n;
  if (n < 0) return { ok: false, path: 'data.n', message: 'must not be negative' };
  return { ok: true, item: n === 0 ? null : n };
}

async function all<T>(batches: AsyncIterable<BatchOrRefusal<T>>): Promise<BatchOrRefusal<T>[]> {
  const result: BatchOrRefusal<T>[] = [];
  for await (const next of batches) result.push(next);
  return result;
}

const line = (n: number) => `{"n":${n}}`;

describe('an events file in batches', () => {
  it('reads lines as they come, in batches of at most maxEvents, blank lines and \\r\\n included', async () => {
    const file = await fileOf([line(1), '', line(2), line(3) + '\r', line(0), line(5)].join('\n'));
    const batches = await all(eventBatches(fileLines(file), check, { maxEvents: 2 }));
    expect(batches).toEqual([
      {
        kind: 'batch',
        batch: { items: [1, 2], firstLine: 1, lastLine: 3, events: 2, bytesRead: 17 },
      },
      // A line the check keeps nothing of (a type the site passes over) is an event all the same.
      { kind: 'batch', batch: { items: [3], firstLine: 4, lastLine: 5, events: 2, bytesRead: 34 } },
      { kind: 'batch', batch: { items: [5], firstLine: 6, lastLine: 6, events: 1, bytesRead: 41 } },
    ]);
  });

  it('closes a batch before a line that would take it past maxBytes', async () => {
    const file = await fileOf([line(1), line(2), line(3)].join('\n') + '\n');
    const batches = await all(
      eventBatches(fileLines(file), check, { maxEvents: 500, maxBytes: 16 }),
    );
    expect(batches.map((next) => (next.kind === 'batch' ? next.batch.items : []))).toEqual([
      [1, 2],
      [3],
    ]);
  });

  it('stops at a bad line, naming it, without the batch it would have joined', async () => {
    const file = await fileOf([line(1), line(2), line(3), line(-4), line(5)].join('\n'));
    const batches = await all(eventBatches(fileLines(file), check, { maxEvents: 2 }));
    expect(
      batches.map((next) => (next.kind === 'batch' ? next.batch.items : next.refusal)),
    ).toEqual([[1, 2], { line: 4, path: 'data.n', message: 'must not be negative' }]);
  });

  it('names a line that is not JSON', async () => {
    const file = await fileOf(`${line(1)}\n{"n":2,\n`);
    const batches = await all(eventBatches(fileLines(file), check, { maxEvents: 10 }));
    const [only] = batches;
    if (only?.kind !== 'refused') throw new Error('not refused');
    expect(batches).toHaveLength(1);
    expect(only.refusal).toMatchObject({ line: 2, path: '(line)' });
    expect(only.refusal.message).toMatch(/^is not JSON/);
  });

  it('reads a line split across the stream’s chunks, multi-byte characters included', async () => {
    const long = JSON.stringify({ n: 7, text: '谷'.repeat(40_000) });
    const file = await fileOf(`${long}\n${line(8)}\n`);
    const batches = await all(eventBatches(fileLines(file), check, { maxEvents: 10 }));
    expect(batches).toEqual([
      {
        kind: 'batch',
        batch: {
          items: [7, 8],
          firstLine: 1,
          lastLine: 2,
          events: 2,
          bytesRead: Buffer.byteLength(long) + 1 + line(8).length + 1,
        },
      },
    ]);
  });

  it('stops at a line longer than the limit, naming it, without reading it whole', async () => {
    const long = JSON.stringify({ n: 3, text: 'x'.repeat(300_000) });
    const file = await fileOf([line(1), line(2), long, line(4)].join('\n'));
    const lines = [];
    for await (const next of fileLines(file, { maxLineBytes: 1000 })) lines.push(next);
    // Line 3 is refused once its first thousand bytes are past, never read to its end.
    expect(lines.map((next) => next.number)).toEqual([1, 2, 3]);
    const batches = await all(
      eventBatches(fileLines(file, { maxLineBytes: 1000 }), check, { maxEvents: 10 }),
    );
    expect(batches).toEqual([
      {
        kind: 'refused',
        refusal: {
          line: 3,
          path: '(line)',
          message: 'is longer than 1,000 bytes, the most a line may hold',
        },
      },
    ]);
  });

  it('takes a line of the limit, with its \\r, and refuses one byte more', async () => {
    const max = 100;
    const of = (bytes: number) => JSON.stringify({ n: bytes, pad: 'x'.repeat(bytes - 18) });
    expect(of(max)).toHaveLength(max);
    const file = await fileOf(`${of(max)}\r\n${of(max)}\n${of(max + 1)}\r\n`);
    const lines = [];
    for await (const next of fileLines(file, { maxLineBytes: max })) lines.push(next);
    expect(
      lines.map((next) => ('unreadable' in next ? next.unreadable : next.text.length)),
    ).toEqual([max, max, 'is longer than 100 bytes, the most a line may hold']);
    // The real limit: a delivery's 5 MB, less its envelope.
    expect(EVENT_LINE_MAX_BYTES).toBe(5 * 1024 * 1024 - 64);
  });

  it('stops at a line that is not valid UTF-8, naming it', async () => {
    const bad = Buffer.concat([
      Buffer.from('{"n":2,"text":"'),
      Buffer.from([0xe8, 0x30]),
      Buffer.from('"}'),
    ]);
    const file = await fileOf(
      Buffer.concat([Buffer.from(`${line(1)}\n`), bad, Buffer.from(`\n${line(3)}\n`)]),
    );
    const batches = await all(eventBatches(fileLines(file), check, { maxEvents: 10 }));
    expect(batches).toEqual([
      { kind: 'refused', refusal: { line: 2, path: '(line)', message: 'is not valid UTF-8' } },
    ]);
  });
});
