import { createHash, randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';

/**
 * Names of temporary uploads, and which of them a process that starts may sweep.
 *
 * A temporary upload is named `<host>-<pid>-<uuid>.part` (host: 12 hex digits of the host name's SHA-256), so a
 * process that was killed mid-upload can be told, at the next start, from a live upload of another instance
 * sharing the same folder or bucket: only what this host's dead processes (or an earlier life of this very pid,
 * as in a restarted container, where the portal is pid 1 again) started before this process did is swept at
 * once. Anything else (another host's uploads, names without an owner) waits until it is a day old.
 * Instances sharing storage therefore need distinct host names, which containers have unless told otherwise.
 * The sweep runs before the process takes any upload, so nothing of its own is live yet; an object store's clock
 * ahead of this host's only postpones a leftover to the day-old rule.
 */
export const TEMP_NAME = /^(?:([0-9a-f]{12})-(\d{1,10})-)?[0-9a-f-]{36}\.part$/;
/** A temporary upload nobody finished within a day is a leftover wherever it came from. */
export const STALE_TEMP_MS = 24 * 3600 * 1000;

const HOST = createHash('sha256').update(hostname()).digest('hex').slice(0, 12);
/** When this process started (not when the module loaded): what an earlier life of it wrote is older than this. */
export const PROCESS_STARTED_AT = performance.timeOrigin;

/** A new temporary upload's name (without any folder or prefix). */
export function tempName(): string {
  return `${HOST}-${process.pid}-${randomUUID()}.part`;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether a temporary upload named `name`, last written (local disk) or initiated (S3) at `since`, is a leftover
 * to remove: one of this host's processes that is gone wrote it before this process started, or it is older than
 * `staleMs`. Names that are not temporary uploads are never leftovers.
 */
export function isLeftover(name: string, since: number, staleMs = STALE_TEMP_MS, now = Date.now()): boolean {
  const match = TEMP_NAME.exec(name);
  if (!match) return false;
  if (now - since >= staleMs) return true;
  const [, host, pidText] = match;
  if (host !== HOST || since >= PROCESS_STARTED_AT) return false;
  const pid = Number(pidText);
  return pid === process.pid || !isAlive(pid);
}
