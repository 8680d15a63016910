import { nextRelease } from './update-choice';

const releases = [
  { version: '5.0.0', channel: 'stable' as const },
  { version: '4.4.0-beta.1', channel: 'beta' as const },
  { version: '4.3.0', channel: 'stable' as const },
  { version: '4.2.0', channel: 'stable' as const },
];
type Wish = Parameters<typeof nextRelease>[1];
/** Every release the server may move to, newest first: what nextRelease returns as each newer one is not wanted. */
function versions(wish: Wish): string[] {
  const found: string[] = [];
  nextRelease(releases, wish, (release) => (found.push(release.version), false));
  return found;
}

describe('nextRelease', () => {
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

  it('returns the newest one wanted, reading no further than the version the server runs', () => {
    const seen: string[] = [];
    const noBeta = (release: { version: string }) => (seen.push(release.version), release.version !== '5.0.0');
    expect(nextRelease(releases, { current: '4.2.0', channel: 'beta', constraint: null }, noBeta)?.version).toBe('4.4.0-beta.1');
    expect(seen).toEqual(['5.0.0', '4.4.0-beta.1']);
    expect(nextRelease(releases, { current: '4.3.0', channel: 'stable', constraint: null }, () => false)).toBeNull();
  });
});
