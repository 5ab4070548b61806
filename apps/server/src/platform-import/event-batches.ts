import type { FileLine, UnreadableLine } from './event-lines.ts';

/** What a line's check answers: the item to keep (null: nothing to keep), or the first bad place. */
export type LineCheck<T> =
  { ok: true; item: T | null } | { ok: false; path: string; message: string };

/** Events of consecutive lines, to be applied or delivered together. */
export interface EventBatch<T> {
  items: T[];
  /** Lines read, blank and passed-over ones included: the first and the last of the batch. */
  firstLine: number;
  lastLine: number;
  /** The events of the batch: its items and those the check kept nothing of. */
  events: number;
  /** Bytes of the file read up to the end of the batch's last line. */
  bytesRead: number;
}

/** A line that stops the file: its number, the place in it and what is wrong there. */
export interface LineRefusal {
  line: number;
  path: string;
  message: string;
}

export type BatchOrRefusal<T> =
  { kind: 'batch'; batch: EventBatch<T> } | { kind: 'refused'; refusal: LineRefusal };

export interface BatchLimits {
  /** Events in a batch, at most. */
  maxEvents: number;
  /** The batch's lines' bytes (each plus one, a separator), at most: a delivery's size. */
  maxBytes?: number;
}

/** A line's JSON, or the refusal that names it. */
function jsonOf(line: FileLine): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(line.text) as unknown };
  } catch (error) {
    return { ok: false, message: `is not JSON (${(error as Error).message})` };
  }
}

/**
 * The lines of an events file (one JSON object `{ type, data }` a line) in batches of at most
 * `limits`. Each line is checked as it is read; a bad one (or one that cannot be read: too long,
 * not UTF-8) ends the batches with its refusal, and the batch it would have joined is never
 * handed out, so nothing of it is applied.
 */
export async function* eventBatches<T>(
  lines: AsyncIterable<FileLine | UnreadableLine>,
  check: (value: unknown, line: FileLine) => LineCheck<T>,
  limits: BatchLimits,
): AsyncGenerator<BatchOrRefusal<T>> {
  let batch: EventBatch<T> | null = null;
  let bytes = 0;
  let lastLine = 0;
  for await (const line of lines) {
    if ('unreadable' in line) {
      yield {
        kind: 'refused',
        refusal: { line: line.number, path: '(line)', message: line.unreadable },
      };
      return;
    }
    const size = Buffer.byteLength(line.text) + 1;
    // A batch this line would make too large is complete without it, whatever the line holds.
    if (batch && limits.maxBytes !== undefined && bytes + size > limits.maxBytes) {
      yield { kind: 'batch', batch };
      batch = null;
    }
    const json = jsonOf(line);
    const checked: LineCheck<T> = json.ok
      ? check(json.value, line)
      : { ok: false, path: '(line)', message: json.message };
    if (!checked.ok) {
      const { path, message } = checked;
      yield { kind: 'refused', refusal: { line: line.number, path, message } };
      return;
    }
    if (!batch) {
      batch = { items: [], firstLine: lastLine + 1, lastLine: 0, events: 0, bytesRead: 0 };
      bytes = 0;
    }
    if (checked.item !== null) batch.items.push(checked.item);
    batch.events += 1;
    batch.lastLine = line.number;
    batch.bytesRead = line.bytesRead;
    bytes += size;
    lastLine = line.number;
    if (batch.events >= limits.maxEvents) {
      yield { kind: 'batch', batch };
      batch = null;
    }
  }
  if (batch) yield { kind: 'batch', batch };
}
