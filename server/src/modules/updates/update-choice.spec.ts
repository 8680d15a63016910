import { updateCandidates } from './update-choice';

const releases = [
  { version: '5.0.0', channel: 'stable' as const },
  { version: '4.4.0-beta.1', channel: 'beta' as const },
  { version: '4.3.0', channel: 'stable' as const },
  { version: '4.2.0', channel: 'stable' as const },
];
const versions = (wish: Parameters<typeof updateCandidates>[1]) => updateCandidates(releases, wish).map((release) => release.version);

describe('updateCandidates', () => {
  it('offers the releases above the current one, newest first', () => {
    expect(versions({ current: '4.2.0', channel: 'stable', constraint: null })).toEqual(['5.0.0', '4.3.0']);
    expect(versions({ current: '5.0.0', channel: 'stable', constraint: null })).toEqual([]);
    expect(versions({ current: '6.0.0', channel: 'stable', constraint: null })).toEqual([]);
  });

  it('offers any release it may have when the server does not say what it runs', () => {
    expect(versions({ current: null, channel: 'stable', constraint: null })).toEqual(['5.0.0', '4.3.0', '4.2.0']);
  });

  it('offers a beta only to a server that follows beta (or a later channel)', () => {
    expect(versions({ current: '4.3.0', channel: 'rc', constraint: '4.x' })).toEqual([]);
    expect(versions({ current: '4.3.0', channel: 'beta', constraint: '4.x' })).toEqual(['4.4.0-beta.1']);
    expect(versions({ current: '4.3.0', channel: 'alpha', constraint: null })).toEqual(['5.0.0', '4.4.0-beta.1']);
  });

  it('keeps within the constraint', () => {
    expect(versions({ current: '4.2.0', channel: 'stable', constraint: '4.x' })).toEqual(['4.3.0']);
    expect(versions({ current: '4.2.0', channel: 'stable', constraint: '~4.2.0' })).toEqual([]);
    expect(versions({ current: '4.2.0', channel: 'stable', constraint: '>=4.3 <6' })).toEqual(['5.0.0', '4.3.0']);
  });

  it('counts a prerelease as below its release', () => {
    expect(versions({ current: '4.4.0-beta.1', channel: 'beta', constraint: null })).toEqual(['5.0.0']);
  });
});
