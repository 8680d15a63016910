/**
 * The checkpoint worker of WalCheckpoints (see there for why): its own connection to the portal's SQLite file,
 * copying the write-ahead log into the database file every `everyMs`, and bringing a long log back to its start
 * with the app's writes held for the last copy.
 */
import Database from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

/** What one checkpoint did, as SQLite reports it. */
export interface CheckpointResult {
  busy: number;
  log: number;
  checkpointed: number;
}

export interface CheckpointWorkerData {
  path: string;
  everyMs: number;
  restartAbovePages: number;
  caughtUpPages: number;
  catchUpCopies: number;
}

/** What the app says: a checkpoint asked for, whether its writes are held for the last copy, or stop. */
export type CheckpointRequest = { asked: number; restart: boolean } | { quiet: boolean } | { stop: true };

/** What the worker says: checkpoints done, or that it wants the app's writes held for its last copy. */
export interface CheckpointResponse {
  hold?: true;
  /** The last copy is made (or was not, the writes not held): the writes may go on. */
  released?: true;
  asked?: number[];
  result?: CheckpointResult;
  error?: string;
}

const settings = workerData as CheckpointWorkerData;
const port = parentPort!;
// No busy timeout: nothing here waits for a lock (a passive copy never does).
const db = new Database(settings.path, { fileMustExist: true, timeout: 0 });
const copy = () => (db.pragma('wal_checkpoint(PASSIVE)') as CheckpointResult[])[0];
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));
const reply = (response: CheckpointResponse) => port.postMessage(response);

/** While the app holds its writes for the last copy: the copy so far, and the checkpoints asked for meanwhile. */
let holding: { copied: CheckpointResult; asked: number[] } | null = null;

function checkpoint(asked?: number, restart = false): void {
  if (holding) {
    if (asked !== undefined) holding.asked.push(asked);
    return;
  }
  let copied: CheckpointResult;
  try {
    copied = copy();
    if (restart || copied.log > settings.restartAbovePages) {
      for (let copies = 1; copies < settings.catchUpCopies; copies++) {
        const before = copied.checkpointed;
        copied = copy();
        // A copy reaches the end of the log as it was when the copy began: what was written meanwhile is left.
        if (copied.checkpointed - before <= settings.caughtUpPages) break;
      }
      // All copied that the copy could reach (no reader holds it back): hold the writes for the rest.
      if (copied.checkpointed === copied.log) {
        holding = { copied, asked: asked === undefined ? [] : [asked] };
        return reply({ hold: true });
      }
    }
  } catch (error) {
    // Another connection checkpointing (the app's, closing) is no reason to stop: the next turn tries again.
    if (asked !== undefined) reply({ asked: [asked], error: reason(error) });
    return;
  }
  if (asked !== undefined) reply({ asked: [asked], result: copied });
}

/** The app holds its writes (quiet) or could not (a transaction of its stayed open): the last copy, or none. */
function lastCopy(quiet: boolean): void {
  const { copied, asked } = holding!;
  holding = null;
  try {
    reply({ released: true, asked, result: quiet ? copy() : copied });
  } catch (error) {
    reply({ released: true, asked, error: reason(error) });
  }
}

const timer = setInterval(() => checkpoint(), settings.everyMs);
port.on('message', (message: CheckpointRequest) => {
  if ('quiet' in message) {
    if (holding) lastCopy(message.quiet);
    return;
  }
  if ('asked' in message) return checkpoint(message.asked, message.restart);
  clearInterval(timer);
  db.close();
  port.close();
});
