import { GENERATED_KEY_PATTERN, generateLicenseKey, isValidTypedKey, LICENSE_KEY_ENTROPY_BITS, normalizeLicenseKey } from './license-key';

describe('license keys', () => {
  it('generates SH- keys in five groups of five Crockford base32 characters, at least 100 bits', () => {
    expect(LICENSE_KEY_ENTROPY_BITS).toBeGreaterThanOrEqual(100);
    for (let i = 0; i < 200; i++) expect(generateLicenseKey()).toMatch(GENERATED_KEY_PATTERN);
  });

  it('uses every character of the alphabet about equally often', () => {
    const counts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) for (const c of generateLicenseKey().slice(3).replace(/-/g, '')) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(32);
    const expected = (4000 * 25) / 32;
    for (const count of counts.values()) expect(Math.abs(count - expected) / expected).toBeLessThan(0.1);
  });

  it('accepts typed keys of the generated form and of the older client, and refuses others', () => {
    expect(isValidTypedKey(generateLicenseKey())).toBe(true);
    expect(isValidTypedKey('SH-LZ3K9F2A-4XQ7PB')).toBe(true);
    for (const bad of [
      'SH-',
      'SH-ABC',
      'XX-ABCDEFGHJK',
      'SH-ABCD--EFGH',
      'SH-ABCD EFGH',
      'SH-abcdefgh',
      `SH-${'A'.repeat(62)}`,
      'SH-ABCDEFGH-',
    ]) {
      expect(isValidTypedKey(bad)).toBe(false);
    }
  });

  it('normalizes pasted keys', () => {
    expect(normalizeLicenseKey('  sh-abcde-fghjk \n')).toBe('SH-ABCDE-FGHJK');
  });
});
