import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Db } from '../db/database.ts';
import { chunked } from '../db/sql-batches.ts';

/**
 * Each server's media folders hold copies (originals fetched from the platform, sizes made of
 * them): when an image's row goes (its account deleted, its item removed for good), the server
 * that ran the deletion removes its own copies at once, and every other server removes its own
 * here, on a sweep. A copy whose image is gone is never served meanwhile (the database decides).
 * A file younger than `graceMs` is left alone: an original is written before its row says so.
 */

export interface DiskSweepOptions {
  mediaDir: string;
  mediaCacheDir: string;
  /** Files younger than this are kept whatever their row says. */
  graceMs: number;
  now?: Date;
}

export interface DiskSweepOutcome {
  originals: number;
  resized: number;
}

/** Names looked up in one statement. */
const NAMES_A_STATEMENT = 500;
/** A resized copy: `<image public id>-<width>.webp` in a folder named by the id's first two characters. */
const RESIZED_NAME = /^([\w-]{16})-\d{2,4}\.webp$/;

async function olderThan(path: string, before: number): Promise<boolean> {
  return stat(path).then(
    (found) => found.isFile() && found.mtimeMs < before,
    () => false,
  );
}

async function filesIn(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

/** Removes this server's copies of images whose rows are gone; says how many went. */
export async function sweepMediaDisk(db: Db, options: DiskSweepOptions): Promise<DiskSweepOutcome> {
  const before = (options.now ?? new Date()).getTime() - options.graceMs;
  const outcome: DiskSweepOutcome = { originals: 0, resized: 0 };

  const originals: string[] = [];
  for (const name of await filesIn(options.mediaDir)) {
    if (await olderThan(join(options.mediaDir, name), before)) originals.push(name);
  }
  for (const names of chunked(originals, NAMES_A_STATEMENT)) {
    const kept = new Set(
      (
        await db.selectFrom('images').select('file_name').where('file_name', 'in', names).execute()
      ).map((row) => row.file_name),
    );
    for (const name of names) {
      if (kept.has(name)) continue;
      await rm(join(options.mediaDir, name), { force: true });
      outcome.originals += 1;
    }
  }

  for (const folder of await filesIn(options.mediaCacheDir)) {
    // Two characters: the resized images' folders (pictures/ keeps its own versions).
    if (folder.length !== 2) continue;
    const dir = join(options.mediaCacheDir, folder);
    const byImage = new Map<string, string[]>();
    for (const name of await filesIn(dir)) {
      const id = RESIZED_NAME.exec(name)?.[1];
      if (id === undefined || !(await olderThan(join(dir, name), before))) continue;
      byImage.set(id, [...(byImage.get(id) ?? []), name]);
    }
    for (const ids of chunked([...byImage.keys()], NAMES_A_STATEMENT)) {
      const kept = new Set(
        (
          await db.selectFrom('images').select('public_id').where('public_id', 'in', ids).execute()
        ).map((row) => row.public_id),
      );
      for (const id of ids) {
        if (kept.has(id)) continue;
        for (const name of byImage.get(id) ?? []) {
          await rm(join(dir, name), { force: true });
          outcome.resized += 1;
        }
      }
    }
  }
  return outcome;
}
