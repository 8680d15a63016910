import { type Grant, releaseAccess, updateAdvice } from './release-coverage';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const stable = { version: '4.2.0', channel: 'stable' as const, published_at: day('2026-06-01') };
const beta = { version: '4.4.0-beta.1', channel: 'beta' as const, published_at: day('2026-06-01') };
const rc = { version: '4.3.0-rc.1', channel: 'rc' as const, published_at: day('2026-06-01') };
const until = (iso: string, channel: Grant['channel'] = 'stable'): Grant => ({ channel, updatesUntil: day(iso) });

describe('releaseAccess', () => {
  it('opens a stable release to a customer without a license, unless the vendor requires one', () => {
    expect(releaseAccess([], stable, false)).toEqual({ covered: false, renew: false, refusal: null });
    expect(releaseAccess([], stable, true)).toEqual({ covered: false, renew: false, refusal: 'LICENSE_REQUIRED' });
  });

  it('covers a release of a granted channel published before the updates ended', () => {
    expect(releaseAccess([until('2026-12-31')], stable, true)).toEqual({ covered: true, renew: false, refusal: null });
    expect(releaseAccess([until('2026-06-01')], stable, true).covered).toBe(true);
    expect(releaseAccess([until('2026-12-31', 'beta')], beta, false).covered).toBe(true);
  });

  it('a beta grant includes the channels before it, not the ones after', () => {
    expect(releaseAccess([until('2026-12-31', 'beta')], rc, false).covered).toBe(true);
    expect(releaseAccess([until('2026-12-31', 'rc')], beta, false).refusal).toBe('CHANNEL_NOT_GRANTED');
  });

  it('refuses a channel no license grants, whatever the dates', () => {
    expect(releaseAccess([until('2030-01-01')], beta, false)).toEqual({ covered: false, renew: false, refusal: 'CHANNEL_NOT_GRANTED' });
  });

  it('marks a release published after the updates ended as one to renew for', () => {
    expect(releaseAccess([until('2026-05-31')], stable, false)).toEqual({ covered: false, renew: true, refusal: null });
    expect(releaseAccess([until('2026-05-31')], stable, true).refusal).toBe('UPDATES_ENDED');
    expect(releaseAccess([until('2026-05-31', 'beta')], beta, false).refusal).toBe('UPDATES_ENDED');
  });

  it('one covering license is enough among several', () => {
    expect(releaseAccess([until('2026-01-01', 'beta'), until('2027-01-01')], stable, true).covered).toBe(true);
    expect(releaseAccess([until('2026-01-01', 'beta'), until('2027-01-01')], beta, true).refusal).toBe('UPDATES_ENDED');
  });

  it('never covers a release that was not published', () => {
    expect(releaseAccess([until('2030-01-01')], { ...stable, published_at: null }, true).covered).toBe(false);
  });
});

describe('updateAdvice', () => {
  // Newest semantic version first, as the catalog holds them.
  const releases = [
    { version: '4.4.0-beta.1', channel: 'beta' as const, published_at: day('2026-09-01') },
    { version: '4.3.0', channel: 'stable' as const, published_at: day('2026-08-01') },
    { version: '4.2.0', channel: 'stable' as const, published_at: day('2026-06-01') },
    { version: '4.1.0', channel: 'stable' as const, published_at: day('2026-03-01') },
  ];

  it('offers the newest covered release above the one the server runs', () => {
    expect(updateAdvice([until('2027-01-01')], releases, '4.1.0', '')).toEqual({
      newestCovered: '4.3.0',
      updateAvailable: '4.3.0',
      updateRequired: false,
      notCovered: false,
    });
    expect(updateAdvice([until('2027-01-01', 'beta')], releases, '4.3.0', '').updateAvailable).toBe('4.4.0-beta.1');
    expect(updateAdvice([until('2027-01-01')], releases, '4.3.0', '').updateAvailable).toBeNull();
  });

  it('offers, of a release in a staged rollout, only what the rollout reaches; the newest covered stays the newest', () => {
    const notYet = (release: { version: string }) => release.version !== '4.3.0';
    expect(updateAdvice([until('2027-01-01')], releases, '4.1.0', '', notYet)).toMatchObject({
      newestCovered: '4.3.0',
      updateAvailable: '4.2.0',
    });
    expect(updateAdvice([until('2027-01-01')], releases, '4.2.0', '', notYet).updateAvailable).toBeNull();
  });

  it('stops at the end of the updates, and calls a later release the server runs not covered', () => {
    expect(updateAdvice([until('2026-07-01')], releases, '4.1.0', '')).toMatchObject({ newestCovered: '4.2.0', updateAvailable: '4.2.0' });
    expect(updateAdvice([until('2026-07-01')], releases, '4.3.0', '')).toEqual({
      newestCovered: '4.2.0',
      updateAvailable: null,
      updateRequired: false,
      notCovered: true,
    });
    expect(updateAdvice([until('2027-01-01')], releases, '4.4.0-beta.1', '').notCovered).toBe(true);
  });

  it('requires an update below the minimum supported version, and says nothing of a version it does not know', () => {
    expect(updateAdvice([until('2027-01-01')], releases, '4.1.0', '4.2.0').updateRequired).toBe(true);
    expect(updateAdvice([until('2027-01-01')], releases, '4.2.0', '4.2.0').updateRequired).toBe(false);
    expect(updateAdvice([until('2027-01-01')], releases, null, '4.2.0')).toEqual({
      newestCovered: '4.3.0',
      updateAvailable: null,
      updateRequired: false,
      notCovered: false,
    });
    expect(updateAdvice([until('2027-01-01')], releases, 'custom-build', '4.2.0')).toMatchObject({ updateAvailable: null, notCovered: false });
    expect(updateAdvice([], releases, '4.1.0', '')).toEqual({ newestCovered: null, updateAvailable: null, updateRequired: false, notCovered: true });
  });
});
