import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { Worker } from 'node:worker_threads';
import { DataSource } from 'typeorm';
import type { CheckpointRequest, CheckpointResponse, CheckpointResult, CheckpointWorkerData } from './checkpoint-worker';
import { sqliteFile } from './sqlite-file';
import { SqliteWriteGate } from './sqlite-write-gate';
import { startWorker } from './workers';

export type { CheckpointResult } from './checkpoint-worker';

/** Each copy syncs the log, stalling the app's next append while it writes: frequent copies keep each sync short (bench:wal). */
const CHECKPOINT_EVERY_MS = 200;
/** SQLite's own default: a checkpoint by the committing connection once the log holds this many pages. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;
/** A log longer than this (64 MB of 4 kB pages) is brought to its start (see below). */
const RESTART_ABOVE_PAGES = 16_384;
/** A copy that found at most this many pages (1 MB) to copy is close enough behind the writer to hold its writes for the last. */
const CAUGHT_UP_PAGES = 256;
/** Copies made to catch up before giving up until the next turn (a long read keeps the copy from advancing). */
const CATCH_UP_COPIES = 8;

interface SqliteConnection {
  pragma(sql: string, options?: { simple: boolean }): unknown;
}

/**
 * By default the committing connection checkpoints there and then, which on the app's one connection is the event loop
 * (docs/ARCHITECTURE.md); so a worker thread with its own connection copies PASSIVE instead. Under steady writes such copies never
 * catch up, so past RESTART_ABOVE_PAGES the worker catches up, then the app holds its writes (SqliteWriteGate; reads go on) for
 * one last copy and the log starts over. Should the worker fail, the app's connection checkpoints as before.
 */
@Injectable()
export class WalCheckpoints implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('WalCheckpoints');
  private worker: Worker | null = null;
  /** Checkpoints asked for by `checkpointNow`, by number, until the worker replies. */
  private readonly asked = new Map<number, { resolve: (result: CheckpointResult) => void; reject: (error: Error) => void }>();
  private nextAsked = 0;
  private readonly gate: SqliteWriteGate;

  constructor(private readonly dataSource: DataSource) {
    this.gate = SqliteWriteGate.for(dataSource);
  }

  onApplicationBootstrap(): void {
    const path = sqliteFile(this.dataSource);
    if (!path) return;
    const settings: CheckpointWorkerData = {
      path,
      everyMs: CHECKPOINT_EVERY_MS,
      restartAbovePages: RESTART_ABOVE_PAGES,
      caughtUpPages: CAUGHT_UP_PAGES,
      catchUpCopies: CATCH_UP_COPIES,
    };
    const worker = startWorker('checkpoint-worker', settings);
    const send = (request: CheckpointRequest) => worker.postMessage(request);
    worker.unref();
    worker.on('message', (message: CheckpointResponse) => {
      if (message.hold) {
        // Not once shut down (or failed): nothing would open the gate again.
        if (this.worker !== worker) return;
        // The worker's last copy waits for this reply, and the app's writes for the copy: till then the worker
        // keeps the process alive (a held write may be all there is to wait for).
        worker.ref();
        void this.gate.close().then((quiet) => send({ quiet }));
        return;
      }
      if (message.released) {
        worker.unref();
        this.gate.open();
      }
      for (const asked of message.asked ?? []) {
        const waiting = this.asked.get(asked);
        this.asked.delete(asked);
        if (message.error !== undefined) waiting?.reject(new Error(message.error));
        else waiting?.resolve(message.result!);
      }
    });
    const failed = (error: unknown) => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.gate.open();
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
    this.gate.open();
    if (!worker) return;
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    // Awaited: the process must not end (with this promise unsettled) for want of anything else to wait for.
    worker.ref();
    worker.postMessage({ stop: true } satisfies CheckpointRequest);
    await exited;
  }

  /** For tests and diagnostics; `restart` brings the log to its start whatever its length; null when this data source needs none. */
  checkpointNow({ restart = false } = {}): Promise<CheckpointResult> | null {
    if (!this.worker) return null;
    const asked = this.nextAsked++;
    const result = new Promise<CheckpointResult>((resolve, reject) => this.asked.set(asked, { resolve, reject }));
    this.worker.postMessage({ asked, restart } satisfies CheckpointRequest);
    return result;
  }

  private connection(): SqliteConnection {
    return (this.dataSource.driver as unknown as { databaseConnection: SqliteConnection }).databaseConnection;
  }
}
