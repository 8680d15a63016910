import { generateKeyPairSync, sign } from 'node:crypto';
import { canonicalJson } from './canonical-json';
import { encodeLicenseFile, LicenseFilePayload, verifyLicenseFile } from './license-file';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const payload: LicenseFilePayload = {
  v: 1,
  kid: 'abcdef0123456789',
  license_key: 'SH-ABCDE-FGHJK-MNPQR-STVWX-YZ012',
  product: 'StreamHub Pro',
  user: 'ünïcode@example.com',
  expires_at: '2031-01-01T00:00:00.000Z',
  max_activations: 3,
  is_trial: false,
  issued_at: '2030-01-01T00:00:00.000Z',
};
const file = encodeLicenseFile(payload, (data) => sign(null, data, privateKey));

describe('canonicalJson', () => {
  it('sorts keys at every depth, drops undefined members and adds no whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: true, y: null }], c: 'x' }, u: undefined })).toBe(
      '{"a":{"c":"x","d":[1,{"y":null,"z":true}]},"b":1}',
    );
  });

  it('refuses values JSON cannot carry faithfully', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow();
    expect(() => canonicalJson({ f: () => 1 })).toThrow();
  });
});

describe('license files', () => {
  it('verify with the matching public key and give back the payload', () => {
    expect(verifyLicenseFile(file, publicKey, new Date('2030-06-01'))).toEqual({ valid: true, payload, expired: false });
    expect(verifyLicenseFile(file, publicKey, new Date('2031-06-01'))).toMatchObject({ valid: true, expired: true });
  });

  it('fail with another key, and when any byte changes', () => {
    expect(verifyLicenseFile(file, generateKeyPairSync('ed25519').publicKey).valid).toBe(false);
    const bytes = Buffer.from(file);
    for (let i = 0; i < bytes.length; i++) {
      for (const replacement of [0x41, 0x2b, 0x0a]) {
        if (bytes[i] === replacement) continue;
        const changed = Buffer.from(bytes);
        changed[i] = replacement;
        expect([i, verifyLicenseFile(changed.toString('latin1'), publicKey).valid]).toEqual([i, false]);
      }
    }
  });

  it('fail for a signed payload that is not canonical JSON', () => {
    const loose = Buffer.from(JSON.stringify(payload, null, 2));
    const signature = sign(null, loose, privateKey);
    const text = [
      '-----BEGIN STREAMHUB LICENSE-----',
      loose.toString('base64'),
      '-----END STREAMHUB LICENSE-----',
      '-----BEGIN STREAMHUB LICENSE SIGNATURE-----',
      signature.toString('base64'),
      '-----END STREAMHUB LICENSE SIGNATURE-----',
      '',
    ].join('\n');
    expect(verifyLicenseFile(text, publicKey)).toEqual({ valid: false, reason: 'payload is not canonical' });
  });
});
