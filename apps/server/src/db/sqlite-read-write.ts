import type Sqlite from 'better-sqlite3';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
} from 'kysely';
import { timeSlices } from './event-loop-turns.ts';
import type { Checkpoints } from './sqlite-checkpoints.ts';

/**
 * SQLite with two connections to one file: a writer, which runs every transaction and every
 * statement that is not a plain SELECT, one holder at a time; and a reader, which runs the
 * SELECTs made outside a transaction at once. In WAL mode the reader sees the last commit, never
 * a transaction half-way, and never waits for one. Kysely's own SQLite driver has one connection
 * for all: a page's SELECT waited for the whole of a long transaction (a large platform delivery,
 * 2.4–3.4 s; issue 37), although that transaction gives the event loop back between its
 * statements (event-loop-turns.ts).
 *
 * better-sqlite3 is synchronous: a statement runs to its end before anything else runs, so the
 * reader needs no lock; the writer's lock is what makes a transaction one holder's from its
 * `begin` to its end. For the same reason the event loop is given back after statements have run
 * back to back for 10 ms (event-loop-turns.ts's timeSlices).
 */
export class SqliteReadWriteDialect extends SqliteDialect {
  readonly #connections: Connections;

  constructor(connections: Connections) {
    super({ database: connections.writer });
    this.#connections = connections;
  }

  override createDriver(): Driver {
    return new ReadWriteDriver(this.#connections);
  }
}

/** The two connections, and the checkpoints that follow the writer's writes. */
interface Connections {
  writer: Sqlite.Database;
  reader: Sqlite.Database;
  checkpoints: Checkpoints;
}

class ReadWriteDriver implements Driver {
  readonly #connections: Connections;
  readonly #writerLock = new Lock();
  readonly #slices = timeSlices();

  constructor(connections: Connections) {
    this.#connections = connections;
  }

  async init(): Promise<void> {
    // Both connections are open already.
  }

  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new RoutedConnection(this.#connections, this.#writerLock, this.#slices));
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await routed(connection).holdWriter();
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    routed(connection).release();
    return Promise.resolve();
  }

  async destroy(): Promise<void> {
    await this.#connections.checkpoints.close();
    this.#connections.reader.close();
    this.#connections.writer.close();
  }
}

function routed(connection: DatabaseConnection): RoutedConnection {
  if (!(connection instanceof RoutedConnection)) throw new Error('not a connection of this driver');
  return connection;
}

/**
 * One use of the database (a statement, a transaction, a `db.connection()`): its SELECTs go to the
 * reader until it first needs the writer; from then on, until released, all of it runs on the
 * writer, which it holds (so it reads what it wrote, and nobody writes in between).
 */
class RoutedConnection implements DatabaseConnection {
  readonly #connections: Connections;
  readonly #writerLock: Lock;
  readonly #slices: () => Promise<void>;
  #holdsWriter = false;

  constructor(connections: Connections, writerLock: Lock, slices: () => Promise<void>) {
    this.#connections = connections;
    this.#writerLock = writerLock;
    this.#slices = slices;
  }

  async holdWriter(): Promise<void> {
    if (this.#holdsWriter) return;
    await this.#writerLock.take();
    this.#holdsWriter = true;
  }

  release(): void {
    if (!this.#holdsWriter) return;
    this.#holdsWriter = false;
    this.#writerLock.give();
    this.#connections.checkpoints.afterWrite();
  }

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const reads = !this.#holdsWriter && SelectQueryNode.is(compiledQuery.query);
    if (!reads) await this.holdWriter();
    const result = run<R>(
      reads ? this.#connections.reader : this.#connections.writer,
      compiledQuery,
    );
    // Statements answer at once, so a chain of them (a job's loop, a long transaction) would
    // never let the event loop turn: after 10 ms of them back to back, it is given back.
    await this.#slices();
    return result;
  }

  /** Nothing here streams (Kysely's interface asks for the method). */
  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not used with SQLite here');
  }
}

function run<R>(database: Sqlite.Database, { sql, parameters }: CompiledQuery): QueryResult<R> {
  const statement = database.prepare<unknown[], R>(sql);
  if (statement.reader) return { rows: statement.all(...parameters) };
  const { changes, lastInsertRowid } = statement.run(...parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** A lock taken in turn: whoever waits longest gets it next. */
class Lock {
  #held = false;
  readonly #waiting: (() => void)[] = [];

  take(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
    });
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
