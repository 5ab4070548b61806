import type { KyselyPlugin } from 'kysely';

/**
 * Long work split into short synchronous steps, the event loop given back between them: what
 * waits meanwhile (requests, timers, I/O) runs before the work goes on. SQLite's statements run
 * on the process's own thread (better-sqlite3 is synchronous), so a transaction of many
 * statements is one block of the event loop unless it is given back between them.
 */

/** Resolves on a later turn of the event loop, after the I/O and timers already due. */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    setImmediate(resolve);
  });
}

/**
 * Gives the event loop back after every statement run through `db.withPlugin(…)`: a transaction
 * of many statements becomes as many steps. On SQLite other writes still wait for the
 * transaction (one writer), but pages and their SELECTs answer meanwhile (sqlite-read-write.ts);
 * on PostgreSQL the statements' round trips gave it back anyway, so this costs a turn a statement.
 * SQLite's driver gives it back after 10 ms of statements anyway (timeSlices below); a turn after
 * every one of a large delivery's statements lets a page's read in between each of them: five
 * times as many reads answered during the delivery as with the slices alone (229 against 40).
 */
export const eventLoopTurnAfterEachStatement: KyselyPlugin = {
  transformQuery: ({ node }) => node,
  transformResult: async ({ result }) => {
    await nextTurn();
    return result;
  },
};

/** How long statements may run back to back on SQLite before the event loop is given back. */
const SQLITE_SLICE_MS = 10;

/**
 * A check to make after each step of work that resolves at once (a SQLite statement: its promise
 * is already settled, so a chain of them never lets the event loop turn): once steps have run
 * back to back for `sliceMs` without the loop turning, it resolves on the next turn; otherwise at
 * once. One setImmediate per slice notices whether the loop turned by itself meanwhile (I/O, a
 * timer), so short work costs nothing and long work is cut into slices of `sliceMs`.
 */
export function timeSlices(sliceMs = SQLITE_SLICE_MS): () => Promise<void> {
  let sliceStart = 0;
  let watching = false;
  const turned = () => {
    watching = false;
  };
  return async () => {
    if (!watching) {
      watching = true;
      sliceStart = performance.now();
      setImmediate(turned);
      return;
    }
    if (performance.now() - sliceStart >= sliceMs) await nextTurn();
  };
}
