import type { Db } from '../db/database.ts';
import { leaseEnd, leaseFree, unheldRow } from '../db/leases.ts';
import { retryWhile } from '../timing/retry-while.ts';

/**
 * The images that come from the platform's media hosts and are not here yet: the queue the
 * fetcher (platform-image-fetcher.ts) works through, kept in the images rows themselves
 * (docs/decisions/0023-platform-images.md). A row is `waiting` until its file is here; a server
 * takes one by moving `fetch_after` ahead of now (its lease), in one compare-and-set, so no two
 * servers fetch it at once and a fetch whose server died is taken again when the lease runs out.
 */

/** One fetch a server holds: the row, its URL, and the lease that makes the row its own. */
export interface ImageLease {
  id: number;
  publicId: string;
  sourceUrl: string;
  /** The attempt this lease is (1 for the first): with `until`, what identifies the lease. */
  attempt: number;
  /** When the lease runs out (ISO): after that, any server may take the row again. */
  until: string;
}

/**
 * An images row no other transaction holds, or nothing. A platform delivery upserts the image
 * rows it names and holds them until it commits (seconds, for a large one): on PostgreSQL, an
 * UPDATE of such a row waited for it, keeping a connection of the pool all along, and the
 * fetcher's slots together took every connection the pages needed (issue 37; seen as a page
 * that waited 5 s of a 5.4 s delivery, the fetcher's updates waiting on the delivery's lock). So
 * the fetcher's updates skip a row that is held (`FOR UPDATE SKIP LOCKED`, db/leases.ts) instead.
 */
const rowNotHeld = (db: Db, id: number) => unheldRow(db, 'images', id);

/** How long a lease's update waits for a row a delivery holds, a try at a time. */
const HELD_ROW_TRIES = 50;
const HELD_ROW_PAUSE_MS = 100;

/** Rows looked at per turn beyond those taken: another server may take some first. */
const CANDIDATES_PER_SLOT = 4;

/**
 * Takes up to `limit` waiting images whose next attempt is due, for `leaseMs`. Each is taken by
 * an UPDATE that only matches while nobody holds it (`fetch_after` null or past), so of two
 * servers racing for a row, one gets it.
 */
export async function takeWaitingImages(
  db: Db,
  { now, limit, leaseMs }: { now: Date; limit: number; leaseMs: number },
): Promise<ImageLease[]> {
  if (limit <= 0) return [];
  const at = now.toISOString();
  const candidates = await db
    .selectFrom('images')
    .select(['id', 'public_id', 'source_url', 'fetch_attempts'])
    .where('state', '=', 'waiting')
    .where('source_url', 'is not', null)
    .where(leaseFree<'images'>('fetch_after', at))
    // Oldest rows first, the same on both engines (which sort nulls differently).
    .orderBy('id')
    .limit(limit * CANDIDATES_PER_SLOT)
    .execute();
  const until = leaseEnd(now, leaseMs);
  const leases: ImageLease[] = [];
  for (const row of candidates) {
    if (leases.length >= limit) break;
    if (row.source_url === null) continue;
    const attempt = row.fetch_attempts + 1;
    // A row a delivery holds is not taken this turn: it is due again at the next.
    const taken = await db
      .updateTable('images')
      .set({ fetch_after: until, fetch_attempts: attempt })
      .where('id', 'in', rowNotHeld(db, row.id))
      .where('state', '=', 'waiting')
      .where('fetch_attempts', '=', row.fetch_attempts)
      .where(leaseFree<'images'>('fetch_after', at))
      .executeTakeFirst();
    if (Number(taken.numUpdatedRows) === 1) {
      leases.push({
        id: row.id,
        publicId: row.public_id,
        sourceUrl: row.source_url,
        attempt,
        until,
      });
    }
  }
  return leases;
}

/** An update that applies only while `lease` is still the row's (not run out and taken again). */
function heldBy(db: Db, lease: ImageLease) {
  return db
    .updateTable('images')
    .where('id', 'in', rowNotHeld(db, lease.id))
    .where('state', '=', 'waiting')
    .where('fetch_attempts', '=', lease.attempt)
    .where('fetch_after', '=', lease.until);
}

/** Whether `lease` is still the row's, read without waiting for anyone. */
async function stillLeased(db: Db, lease: ImageLease): Promise<boolean> {
  const row = await db
    .selectFrom('images')
    .select('id')
    .where('id', '=', lease.id)
    .where('state', '=', 'waiting')
    .where('fetch_attempts', '=', lease.attempt)
    .where('fetch_after', '=', lease.until)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Runs a lease's update (heldBy) until it applies, or the lease is no longer the row's. While a
 * delivery holds the row, the update skips it: tried again a moment later, no connection kept in
 * between. True when it applied.
 */
async function updateLeased(
  db: Db,
  lease: ImageLease,
  update: () => Promise<{ numUpdatedRows: bigint }>,
): Promise<boolean> {
  return retryWhile(async () => Number((await update()).numUpdatedRows) === 1, {
    isRetryable: async (applied) => !applied && (await stillLeased(db, lease)),
    tries: HELD_ROW_TRIES,
    everyMs: HELD_ROW_PAUSE_MS,
  });
}

/** The file is here: the image is ready. False when the lease was lost (or the row is gone). */
export async function markImageReady(
  db: Db,
  lease: ImageLease,
  fileName: string,
): Promise<boolean> {
  return updateLeased(db, lease, () =>
    heldBy(db, lease)
      .set({ state: 'ready', file_name: fileName, fetch_after: null, fetch_error: null })
      .executeTakeFirst(),
  );
}

/** The attempt failed: try again at `retryAt`, or never (`failed`) when it is null. */
export async function markAttemptFailed(
  db: Db,
  lease: ImageLease,
  { reason, retryAt }: { reason: string; retryAt: Date | null },
): Promise<void> {
  const error = reason.slice(0, 200);
  await updateLeased(db, lease, () =>
    heldBy(db, lease)
      .set(
        retryAt === null
          ? { state: 'failed', fetch_after: null, fetch_error: error }
          : { fetch_after: retryAt.toISOString(), fetch_error: error },
      )
      .executeTakeFirst(),
  );
}

/**
 * Gives a lease back untried (the server is closing): the row is due again at once, and the
 * attempt does not count.
 */
export async function releaseLease(db: Db, lease: ImageLease): Promise<void> {
  await updateLeased(db, lease, () =>
    heldBy(db, lease)
      .set({ fetch_after: null, fetch_attempts: lease.attempt - 1 })
      .executeTakeFirst(),
  );
}

/** How many images are still waiting for their file (the metrics' gauge). */
export async function waitingImageCount(db: Db): Promise<number> {
  const row = await db
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('state', '=', 'waiting')
    .executeTakeFirstOrThrow();
  // PostgreSQL's count is a bigint, which may come as text.
  return Number(row.count);
}
