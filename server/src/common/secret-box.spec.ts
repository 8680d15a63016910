import { randomBytes } from 'node:crypto';
import { SecretBox } from './secret-box';

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('JBSWY3DPEHPK3PXP');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(sealed);
    expect(box.open(sealed)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('opens nothing sealed with another key, altered, or malformed', () => {
    const sealed = box.seal('secret');
    expect(new SecretBox(randomBytes(32)).open(sealed)).toBeNull();
    const [version, iv, tag, text] = sealed.split('.');
    const altered = Buffer.from(text, 'base64url');
    altered[0] ^= 1;
    expect(box.open([version, iv, tag, altered.toString('base64url')].join('.'))).toBeNull();
    expect(box.open('plain-text')).toBeNull();
    expect(box.open('v2.a.b.c')).toBeNull();
  });
});
