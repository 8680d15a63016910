import { Logger } from '@nestjs/common';
import { close as closeFile, createWriteStream, fstat, open as openNode } from 'node:fs';
import { lstat, mkdir, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { Readable } from 'node:stream';
import { copyRange, readRange } from './file-reads';
import { FileStorage, MeasuringStream, OpenedObject, ReceivedUpload } from './file-storage';
import { isLeftover, TEMP_NAME, tempName } from './temp-uploads';

// The callback API: lighter per call than fs/promises' FileHandle on the download path.
const openFile = promisify(openNode);
const fstatFile = promisify(fstat);

/** Keys the portal makes: `<folder>/<uuid>[.<ext>]`, lower-case; anything else never reaches the file system. */
export const STORAGE_KEY = /^[a-z][a-z0-9-]{0,30}\/[0-9a-f-]{36}(\.[a-z0-9]{1,8}){0,2}$/;

/** The default driver: files under STORAGE_DIR (DATA_DIR/storage), uploads written to `.tmp` there and renamed into place. */
export class LocalDiskStorage extends FileStorage {
  private readonly logger = new Logger('Storage');
  readonly tempDir: string;
  private ready: Promise<void> | null = null;

  constructor(readonly root: string) {
    super();
    this.root = resolve(root);
    this.tempDir = join(this.root, '.tmp');
  }

  /** Creates the folders and removes temporary files a killed process left behind (once). */
  init(): Promise<void> {
    return (this.ready ??= mkdir(this.tempDir, { recursive: true }).then(async () => void (await this.sweep())));
  }

  /**
   * Removes leftover temporary uploads (see isLeftover: a dead process's on this host from before this start, or
   * anything older than `staleMs`). Only regular files named like a temporary upload, only in the temp folder.
   */
  async sweep(staleMs?: number): Promise<string[]> {
    const removed: string[] = [];
    for (const name of await readdir(this.tempDir)) {
      if (!TEMP_NAME.test(name)) continue;
      const path = join(this.tempDir, name);
      const info = await lstat(path).catch(() => null);
      if (!info?.isFile() || !isLeftover(name, info.mtimeMs, staleMs)) continue;
      await rm(path, { force: true });
      removed.push(name);
    }
    if (removed.length) this.logger.log(`Removed ${removed.length} temporary upload(s) a stopped process left behind`);
    return removed;
  }

  async receive(source: Readable, maxBytes: number): Promise<ReceivedUpload> {
    await this.init();
    const tempId = tempName();
    const path = join(this.tempDir, tempId);
    const measure = new MeasuringStream(maxBytes);
    const target = createWriteStream(path, { flags: 'wx', mode: 0o640 });
    return new Promise<ReceivedUpload>((resolve, reject) => {
      let failed = false;
      // The source is not destroyed on failure (its owner, e.g. multer, decides what happens to the request):
      // it is unpiped and drained, and the temporary file is gone before the caller hears of the failure.
      const fail = (error: unknown) => {
        if (failed) return;
        failed = true;
        source.unpipe(measure);
        source.resume();
        measure.destroy();
        target.destroy();
        const closed = target.closed ? Promise.resolve() : new Promise<void>((done) => target.once('close', () => done()));
        void closed
          .then(() => rm(path, { force: true }))
          .then(
            () => reject(error),
            () => reject(error),
          );
      };
      source.once('error', fail);
      measure.once('error', fail);
      target.once('error', fail);
      target.once('close', () => {
        if (!failed) resolve({ tempId, size: measure.byteCount, sha256: measure.hash.digest('hex') });
      });
      source.pipe(measure).pipe(target);
    });
  }

  async commit(upload: ReceivedUpload, key: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(join(target, '..'), { recursive: true });
    await rename(this.tempPath(upload.tempId), target);
  }

  async discard(tempId: string): Promise<void> {
    await rm(this.tempPath(tempId), { force: true });
  }

  async open(key: string): Promise<OpenedObject | null> {
    const path = this.pathOf(key);
    let fd: number;
    try {
      fd = await openFile(path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const close = () => closeFile(fd, () => undefined);
    try {
      const info = await fstatFile(fd);
      if (!info.isFile()) return (close(), null);
      return {
        size: info.size,
        close,
        copyTo: (range, destination) => copyRange(fd, range, destination).finally(close),
        read: (range) => readRange(fd, range).finally(close),
      };
    } catch (error) {
      close();
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    try {
      await unlink(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn(`Could not remove ${key}: ${String(error)}`);
    }
  }

  async usedBytes(): Promise<number> {
    let total = 0;
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
        if (entry.name === '.tmp') continue;
        const path = join(dir, entry.name);
        if (entry.isDirectory()) await walk(path);
        else if (entry.isFile()) total += (await stat(path).catch(() => ({ size: 0 }))).size;
      }
    };
    await walk(this.root);
    return total;
  }

  /** The absolute path of a key; refuses anything that is not a portal-made key or would leave the root. */
  pathOf(key: string): string {
    if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    const path = resolve(this.root, key);
    const inside = relative(this.root, path);
    if (!inside || inside.startsWith('..') || inside.includes(`..${sep}`)) throw new Error(`Storage key leaves the root: ${key}`);
    return path;
  }

  private tempPath(tempId: string): string {
    if (!TEMP_NAME.test(tempId)) throw new Error(`Invalid temporary upload id: ${JSON.stringify(tempId)}`);
    return join(this.tempDir, tempId);
  }
}
