import { fleetVersions } from './fleet-versions';

describe('fleetVersions', () => {
  const today = {
    day: '2026-12-05',
    servers: 100,
    byVersion: [
      { name: '4.1.0', count: 50 },
      { name: '4.2.0', count: 30 },
      { name: 'unknown', count: 10 },
      { name: '3.9.0', count: 4 },
      { name: '4.0.0', count: 3 },
      { name: '3.8.0', count: 2 },
      { name: '3.7.0', count: 1 },
    ],
  };

  it("charts today's most reported versions, newest first, the rest as other, and the share on the newest stable", () => {
    const fleet = fleetVersions(
      [
        { day: '2026-12-03', dimension: '4.1.0', value: 70 },
        { day: '2026-12-03', dimension: '3.9.0', value: 20 },
        { day: '2026-12-03', dimension: '3.1.0', value: 5 },
        { day: '2026-12-04', dimension: '4.1.0', value: 60 },
        { day: '2026-12-04', dimension: '4.2.0', value: 10 },
        // Today's snapshot gives way to the live counts.
        { day: '2026-12-05', dimension: '4.1.0', value: 1 },
      ],
      today,
      '4.2.0',
    );
    expect(fleet.versions).toEqual(['4.2.0', '4.1.0', '4.0.0', '3.9.0', '3.8.0']);
    expect(fleet.days).toEqual([
      { day: '2026-12-03', servers: [0, 70, 0, 20, 0], other: 5 },
      { day: '2026-12-04', servers: [10, 60, 0, 0, 0], other: 0 },
      { day: '2026-12-05', servers: [30, 50, 3, 4, 2], other: 11 },
    ]);
    expect(fleet).toMatchObject({ newest_stable: '4.2.0', servers: 100, on_newest_stable: 30 });
  });

  it('says so when there is no stable release or no server yet', () => {
    expect(fleetVersions([], { day: '2026-12-05', servers: 0, byVersion: [] }, null)).toEqual({
      versions: [],
      days: [{ day: '2026-12-05', servers: [], other: 0 }],
      newest_stable: null,
      servers: 0,
      on_newest_stable: 0,
    });
  });
});
