import { randomUUID } from 'node:crypto';
import { offeredTo, rolloutBucket } from './rollout';

const servers = Array.from({ length: 10_000 }, () => `srv-${randomUUID()}`);
const reached = (percent: number, paused = false) =>
  servers.filter((server) => offeredTo({ rollout_percent: percent, rollout_paused: paused }, server));

describe('staged rollouts', () => {
  it('gives a server the same place every time', () => {
    for (const server of servers.slice(0, 100)) expect(rolloutBucket(server)).toBe(rolloutBucket(server));
  });

  it('offers a release to about its share of servers, and keeps those when the share is raised', () => {
    const half = reached(50);
    expect(half.length).toBeGreaterThan(4_500);
    expect(half.length).toBeLessThan(5_500);
    const more = new Set(reached(80));
    expect(half.every((server) => more.has(server))).toBe(true);
    expect(more.size).toBeGreaterThan(half.length);
  });

  it('offers a finished rollout to every server, and a paused or 0 % one to none', () => {
    expect(reached(100)).toHaveLength(servers.length);
    expect(offeredTo({ rollout_percent: 100, rollout_paused: false }, null)).toBe(true);
    expect(offeredTo({ rollout_percent: 99, rollout_paused: false }, null)).toBe(false);
    expect(reached(0)).toHaveLength(0);
    expect(reached(100, true)).toHaveLength(0);
  });
});
