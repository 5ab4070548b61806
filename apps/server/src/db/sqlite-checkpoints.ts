import type Sqlite from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * SQLite's checkpoints (copying what WAL holds into the database file), run on a thread of their
 * own. SQLite runs one by itself in the commit that grows the WAL past 1,000 pages, on the thread
 * that commits: the server's one thread, with every request waiting. A large platform delivery's
 * commit took 87 ms here, 67 ms of it that checkpoint (issue 37: no delivery may hold the pages
 * for more than 100 ms). The writer's own checkpoints are turned off; after each write this
 * thread is asked for a PASSIVE checkpoint, which waits for no reader nor writer, on a connection
 * of its own. Should the thread fail, the writer checkpoints as before.
 */

/** The checkpointer's code: plain CommonJS, so it runs from the build and from the sources alike. */
const CHECKPOINTER = `
const { parentPort, workerData } = require('node:worker_threads');
const Sqlite = require(workerData.driver);
const db = new Sqlite(workerData.file);
db.pragma('busy_timeout = 5000');
parentPort.on('message', (message) => {
  if (message === 'close') {
    db.close();
    parentPort.close();
    return;
  }
  db.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage('done');
});
`;

/** SQLite's own rule: a checkpoint once the WAL passes this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;

export interface Checkpoints {
  /** Something was written: a checkpoint soon (one at a time; asks made meanwhile become one). */
  afterWrite(): void;
  /** Stops the thread (the last connection to close checkpoints what is left). */
  close(): Promise<void>;
}

export function checkpointsOffThread(writer: Sqlite.Database, file: string): Checkpoints {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(CHECKPOINTER, { eval: true, workerData: { driver, file } });
  writer.pragma('wal_autocheckpoint = 0');
  let running = false;
  let again = false;
  let failed = false;
  let closing = false;
  const fallBack = () => {
    if (failed || closing) return;
    failed = true;
    if (writer.open) writer.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
  };
  worker.on('error', fallBack);
  worker.on('exit', fallBack);
  worker.on('message', () => {
    running = false;
    if (again) {
      again = false;
      start();
    }
  });
  // The thread never keeps the process alive: a server ends when its work does.
  worker.unref();
  function start() {
    running = true;
    worker.postMessage('checkpoint');
  }
  return {
    afterWrite() {
      if (failed || closing) return;
      if (running) again = true;
      else start();
    },
    async close() {
      if (closing || failed) return;
      closing = true;
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      // Waiting for the thread keeps the process alive: otherwise a process with nothing else to
      // do (a production server refusing an older schema, closing its database) ended right here,
      // with 0 and without its message.
      worker.ref();
      worker.postMessage('close');
      await exited;
    },
  };
}
