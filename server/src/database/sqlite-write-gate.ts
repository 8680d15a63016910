import { DataSource } from 'typeorm';

/** How long `close` waits for a transaction open on the app's connection to end before it gives up. */
const CLOSE_WAIT_MS = 100;

interface SqliteConnection {
  readonly inTransaction: boolean;
}

interface QueryRunnerLike {
  query(sql: string, ...rest: unknown[]): Promise<unknown>;
}

/** Statements that only read (and pragmas): they pass a closed gate (a checkpoint never waits for them). */
const READS = /^\s*(SELECT|WITH|PRAGMA|EXPLAIN)\b/i;

/**
 * Holds the app's SQLite writes for a moment, without holding the event loop: while it is closed, a write that
 * is about to start waits (asynchronously) until it opens; reads and the statements of a transaction already open
 * go on. The WAL checkpointer closes it for its last copy, so no frame is added to the log meanwhile and the next
 * commit can write the log from its start (see wal-checkpoints.ts). Without it, a commit that met the checkpointer
 * holding the write lock slept in SQLite's busy handler, on the event loop, for as long as the copy and its syncs took.
 *
 * Every write of the app's connection comes through here: `PreparedSql`'s and TypeORM's (its one query runner's
 * `query` is wrapped, once per data source). Nothing on MySQL or in-memory SQLite ever closes it.
 */
export class SqliteWriteGate {
  private static readonly gates = new WeakMap<DataSource, SqliteWriteGate>();
  /** Settled when the gate opens; null while it is open. */
  private closing: { promise: Promise<void>; open: () => void } | null = null;

  private constructor(private readonly dataSource: DataSource) {}

  static for(dataSource: DataSource): SqliteWriteGate {
    let gate = SqliteWriteGate.gates.get(dataSource);
    if (!gate) {
      SqliteWriteGate.gates.set(dataSource, (gate = new SqliteWriteGate(dataSource)));
      if (dataSource.options.type === 'better-sqlite3') gate.guardTypeormWrites();
    }
    return gate;
  }

  /** What a write about to start awaits: null (go on at once) unless the gate is closed and no transaction is open. */
  get closed(): Promise<void> | null {
    if (!this.closing || this.connection().inTransaction) return null;
    return this.closing.promise;
  }

  get isClosed(): boolean {
    return this.closing !== null;
  }

  /**
   * Closes the gate; resolves true once no transaction is open on the connection (a TypeORM transaction spans
   * turns of the event loop), false (and opens it again) if one stays open longer than `waitMs`.
   */
  async close(waitMs = CLOSE_WAIT_MS): Promise<boolean> {
    if (!this.closing) {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      this.closing = { promise, open };
    }
    const giveUpAt = Date.now() + waitMs;
    while (this.connection().inTransaction) {
      if (Date.now() > giveUpAt) {
        this.open();
        return false;
      }
      await new Promise(setImmediate);
    }
    return true;
  }

  /** Lets the writes that waited go on, in the order they came. */
  open(): void {
    const closing = this.closing;
    this.closing = null;
    closing?.open();
  }

  private guardTypeormWrites(): void {
    const runner = this.dataSource.driver.createQueryRunner('master') as unknown as QueryRunnerLike;
    const query = runner.query.bind(runner);
    runner.query = async (sql: string, ...rest: unknown[]) => {
      const closed = this.closed;
      if (closed && !READS.test(sql)) await closed;
      return query(sql, ...rest);
    };
  }

  private connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }
}
