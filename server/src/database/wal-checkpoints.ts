import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';

/** How often the worker copies the write-ahead log into the database file. */
const CHECKPOINT_EVERY_MS = 1000;
/** SQLite's own default: a checkpoint by the committing connection once the log holds this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** A log longer than this (64 MB of 4 kB pages) is restarted after its copy (see WORKER_SOURCE). */
const RESTART_ABOVE_PAGES = 16_384;
/** How long a restart may wait for the app's connection to finish a write (it writes in milliseconds). */
const RESTART_WAIT_MS = 200;

/**
 * The worker: its own connection to the portal's SQLite file, checkpointing every CHECKPOINT_EVERY_MS. PASSIVE
 * copies what it can without waiting for readers or writers (it never takes the busy handler), so the app's
 * connection goes on writing meanwhile. But the log starts again from its beginning only when a writer finds it
 * all copied, and under steady writes a passive copy never catches up with the writer: bench:validate's log grew
 * to 86 MB in 13 s, and would grow as long as the load lasts. So a log past RESTART_ABOVE_PAGES is then restarted:
 * RESTART copies what was written meanwhile (little) under the write lock, and the next commit writes the log
 * from its start. The app's writes wait for that lock meanwhile, which is why it is not done every turn. A
 * checkpoint asked for (`checkpointNow`) answers with its result.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
// The busy timeout is only taken by a restart (a passive copy never waits).
const db = new Database(workerData.path, { fileMustExist: true, timeout: workerData.restartWaitMs });
const checkpoint = (asked, restart) => {
  let answer;
  try {
    const copied = db.pragma('wal_checkpoint(PASSIVE)')[0];
    const restarting = !copied.busy && (restart || copied.log > workerData.restartAbovePages);
    answer = { asked, result: restarting ? db.pragma('wal_checkpoint(RESTART)')[0] : copied };
  } catch (error) {
    // Another connection checkpointing (the app's, closing) is no reason to stop: the next turn tries again.
    answer = { asked, error: String((error && error.message) || error) };
  }
  if (asked !== undefined) parentPort.postMessage(answer);
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', (message) => {
  if (message.asked !== undefined) return checkpoint(message.asked, message.restart);
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/** What one checkpoint did, as SQLite reports it. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

interface SqliteConnection {
  pragma(sql: string, options?: { simple: boolean }): unknown;
}

/**
 * WAL checkpoints of a SQLite file off the event loop. By default the connection whose commit finds 1,000 pages in
 * the log copies them into the database file and syncs it, there and then: on the app's one connection that held
 * the event loop for 50 ms and more every second or two under write load (bench:downloads: every request waited).
 * The app's connection stops checkpointing (wal_autocheckpoint = 0) and a worker thread with its own connection
 * does it every second. Should the worker fail, the app's connection checkpoints as before rather than let the log
 * grow. Closing the last connection at shutdown checkpoints what is left. MySQL and in-memory SQLite: nothing to do.
 */
@Injectable()
export class WalCheckpoints implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WalCheckpoints');
  private worker: Worker | null = null;
  /** Checkpoints asked for by `checkpointNow`, by number, until the worker answers. */
  private readonly asked = new Map<number, { resolve: (result: CheckpointResult) => void; reject: (error: Error) => void }>();
  private nextAsked = 0;

  constructor(private readonly dataSource: DataSource) {}

  onApplicationBootstrap(): void {
    const path = this.filePath();
    if (!path) return;
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        path,
        driver: require.resolve('better-sqlite3'),
        everyMs: CHECKPOINT_EVERY_MS,
        restartAbovePages: RESTART_ABOVE_PAGES,
        restartWaitMs: RESTART_WAIT_MS,
      },
    });
    worker.unref();
    worker.on('message', ({ asked, result, error }: { asked: number; result?: CheckpointResult; error?: string }) => {
      const waiting = this.asked.get(asked);
      this.asked.delete(asked);
      if (error !== undefined) waiting?.reject(new Error(error));
      else waiting?.resolve(result!);
    });
    const failed = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.logger.error(`Checkpoint worker stopped (${String(error)}); the app's connection checkpoints again`);
      this.connection().pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(`exit code ${code}`));
    this.connection().pragma('wal_autocheckpoint = 0');
    this.worker = worker;
  }

  async onApplicationShutdown(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ stop: true });
    await exited;
  }

  /**
   * The result of a checkpoint run now (for tests and diagnostics), with `restart` one that restarts the log
   * whatever its length; null when this data source needs none.
   */
  checkpointNow({ restart = false } = {}): Promise<CheckpointResult> | null {
    if (!this.worker) return null;
    const asked = this.nextAsked++;
    const result = new Promise<CheckpointResult>((resolve, reject) => this.asked.set(asked, { resolve, reject }));
    this.worker.postMessage({ asked, restart });
    return result;
  }

  private filePath(): string | null {
    const { type, database } = this.dataSource.options;
    if (type !== 'better-sqlite3') return null;
    const path = String(database);
    return path === ':memory:' || path.startsWith('file::memory:') ? null : path;
  }

  private connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }
}
