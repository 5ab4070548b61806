import { stat } from 'node:fs/promises';
import {
  eventBatches,
  type BatchLimits,
  type EventBatch,
  type LineCheck,
  type LineRefusal,
} from './event-batches.ts';
import { fileLines, type FileLine } from './event-lines.ts';
import type { RunProgress } from './import-progress.ts';

/** What a batch came to: events applied, and ignored (a version not above the stored one). */
export interface BatchResult {
  applied: number;
  ignored: number;
}

export interface EventFileRun<T> {
  file: string;
  /** Checks one line's JSON, as a delivery's event would be. */
  check: (value: unknown, line: FileLine) => LineCheck<T>;
  limits: BatchLimits;
  /** Applies or delivers a batch, whole or not at all; throws when it cannot. */
  take: (batch: EventBatch<T>) => Promise<BatchResult>;
  /** Asked before each batch: true ends the run there (Ctrl-C). */
  stopRequested: () => boolean;
  onProgress?: (progress: RunProgress) => void;
  now?: () => number;
}

/**
 * How a run ended: `done` (the whole file), `stopped` (asked to, between two batches),
 * `refused` (a bad line; the batches before it are taken, its own is not) or `failed` (`take`
 * threw: that batch is not taken). `lastLine` is the last line taken.
 */
export type EventFileOutcome = {
  events: number;
  applied: number;
  ignored: number;
  lastLine: number;
} & (
  | { kind: 'done' | 'stopped' }
  | { kind: 'refused'; refusal: LineRefusal }
  | { kind: 'failed'; error: unknown; lines: { first: number; last: number } }
);

/**
 * Reads an events file a batch at a time and hands each batch to `take`, in order, one at a time.
 * The next batch is read and checked while the current one is taken (the database's work and
 * this process's parsing overlap), never further ahead: the file is never held whole, and a run
 * stopped or refused between two batches has taken exactly the lines up to `lastLine`.
 */
export async function runEventFile<T>(run: EventFileRun<T>): Promise<EventFileOutcome> {
  const now = run.now ?? Date.now;
  const startedAt = now();
  const totalBytes = (await stat(run.file)).size;
  const outcome = { events: 0, applied: 0, ignored: 0, lastLine: 0 };
  const batches = eventBatches(fileLines(run.file), run.check, run.limits);
  let ahead = batches.next();
  const end = (result: EventFileOutcome): EventFileOutcome => {
    // The batch read ahead is left for the next run; the file is closed.
    ahead.catch(() => undefined);
    void batches.return(undefined).catch(() => undefined);
    return result;
  };
  for (;;) {
    const next = await ahead;
    if (next.done) break;
    if (next.value.kind === 'refused') {
      return end({ ...outcome, kind: 'refused', refusal: next.value.refusal });
    }
    // Asked between two batches.
    if (run.stopRequested()) return end({ ...outcome, kind: 'stopped' });
    const { batch } = next.value;
    ahead = batches.next();
    let result: BatchResult;
    try {
      result = await run.take(batch);
    } catch (error) {
      return end({
        ...outcome,
        kind: 'failed',
        error,
        lines: { first: batch.firstLine, last: batch.lastLine },
      });
    }
    outcome.events += batch.events;
    outcome.applied += result.applied;
    outcome.ignored += result.ignored;
    outcome.lastLine = batch.lastLine;
    run.onProgress?.({
      events: outcome.events,
      bytesRead: batch.bytesRead,
      totalBytes,
      elapsedMs: now() - startedAt,
    });
  }
  return { ...outcome, kind: 'done' };
}
