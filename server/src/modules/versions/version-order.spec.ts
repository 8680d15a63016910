import { rcompare } from 'semver';
import { versionOrder } from './version-order';

describe('versionOrder', () => {
  it('sorts as semantic versions do', () => {
    const versions = ['4.2.0', '4.4.0-beta.1', '4.3.0', '4.4.0-beta.10', '4.4.0-beta.2', '4.4.0', '4.4.0-alpha', '10.0.0', '4.4.0-rc.1'];
    const byKey = [...versions].sort((a, b) => (versionOrder(b) < versionOrder(a) ? -1 : versionOrder(b) > versionOrder(a) ? 1 : 0));
    expect(byKey).toEqual([...versions].sort(rcompare));
  });

  it('puts a string that is not a semantic version lowest', () => {
    expect(versionOrder('10.4')).toBe('');
    expect(versionOrder('0.0.1') > versionOrder('10.4')).toBe(true);
  });
});
