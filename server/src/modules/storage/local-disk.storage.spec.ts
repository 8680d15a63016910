import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { LocalDiskStorage } from './local-disk.storage';
import { PROCESS_STARTED_AT, tempName } from './temp-uploads';

describe('LocalDiskStorage start-up sweep', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'portal-sweep-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const host = tempName().slice(0, 12);
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
  const beforeStart = new Date(PROCESS_STARTED_AT - 60_000);

  /** Writes a file under the storage root, last modified at `at`. */
  const put = (path: string, at = beforeStart) => {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), 'bytes');
    utimesSync(join(root, path), at, at);
  };

  it("removes a dead process's temporary uploads from before this start, and only those", async () => {
    const outside = mkdtempSync(join(tmpdir(), 'portal-sweep-outside-'));
    const leftover = `${host}-${deadPid}-${randomUUID()}.part`;
    const kept = [
      `.tmp/${host}-${deadPid}-${randomUUID()}.part`, // written since this start: a live upload
      `.tmp/0123456789ab-${deadPid}-${randomUUID()}.part`, // another host's, not a day old
      `.tmp/${host}-${process.ppid}-${randomUUID()}.part`, // a process that still runs
      '.tmp/notes.txt',
      `files/${randomUUID()}.zip`,
      `${host}-${deadPid}-${randomUUID()}.part`, // named like one, but not in the temp folder
    ];
    try {
      put(`.tmp/${leftover}`);
      for (const path of kept) put(path, path === kept[0] ? new Date() : beforeStart);
      // A directory and a symbolic link named like leftovers: not files of ours, never followed.
      mkdirSync(join(root, '.tmp', `${host}-${deadPid}-${randomUUID()}.part`));
      writeFileSync(join(outside, 'target'), 'not ours');
      const link = `${host}-${deadPid}-${randomUUID()}.part`;
      symlinkSync(join(outside, 'target'), join(root, '.tmp', link));

      const storage = new LocalDiskStorage(root);
      await storage.init();

      expect(readdirSync(join(root, '.tmp'))).not.toContain(leftover);
      expect(readdirSync(join(root, '.tmp'))).toHaveLength(6);
      for (const path of kept) expect(readdirSync(join(root, path, '..'))).toContain(path.split('/').pop());
      expect(readdirSync(outside)).toEqual(['target']);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('keeps what a live upload of this process writes', async () => {
    const storage = new LocalDiskStorage(root);
    await storage.init();
    const received = await storage.receive(Readable.from([Buffer.from('abc')]), 10);
    expect(await storage.sweep()).toEqual([]);
    expect(readdirSync(join(root, '.tmp'))).toEqual([received.tempId]);
  });
});
