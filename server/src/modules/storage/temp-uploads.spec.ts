import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { isLeftover, PROCESS_STARTED_AT, STALE_TEMP_MS, TEMP_NAME, tempName } from './temp-uploads';

describe('temporary upload names', () => {
  const mine = tempName();
  const host = mine.slice(0, 12);
  const before = PROCESS_STARTED_AT - 1000;
  const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;

  it('names an upload after this host and process', () => {
    expect(mine).toMatch(TEMP_NAME);
    expect(mine.startsWith(`${host}-${process.pid}-`)).toBe(true);
  });

  it("sweeps what a dead process of this host, or this pid's earlier life, wrote before this process started", () => {
    expect(isLeftover(`${host}-${deadPid}-${randomUUID()}.part`, before)).toBe(true);
    expect(isLeftover(`${host}-${process.pid}-${randomUUID()}.part`, before)).toBe(true);
  });

  it('keeps live uploads: written since this start, by a process that runs, or by another host (until a day old)', () => {
    expect(isLeftover(`${host}-${deadPid}-${randomUUID()}.part`, Date.now())).toBe(false);
    expect(isLeftover(`${host}-${process.ppid}-${randomUUID()}.part`, before)).toBe(false);
    expect(isLeftover(`0123456789ab-${deadPid}-${randomUUID()}.part`, before)).toBe(host === '0123456789ab');
    expect(isLeftover(`0123456789ab-1-${randomUUID()}.part`, Date.now() - STALE_TEMP_MS)).toBe(true);
    // Names from before owners were recorded: only by age.
    expect(isLeftover(`${randomUUID()}.part`, before)).toBe(false);
    expect(isLeftover(`${randomUUID()}.part`, Date.now() - STALE_TEMP_MS)).toBe(true);
  });

  it('never takes anything else for a leftover', () => {
    for (const name of ['portal.sqlite', `${randomUUID()}.zip`, `../${mine}`, `${mine}.x`, `x${mine}`])
      expect(isLeftover(name, 0)).toBe(false);
  });
});
