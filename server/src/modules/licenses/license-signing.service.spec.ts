import { generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/app-config';
import { LicenseSigningService, SIGNING_KEY_FILE } from './license-signing.service';

const dataDir = () => mkdtempSync(join(tmpdir(), 'portal-signing-'));

describe('LicenseSigningService.ensureKey', () => {
  it('writes no key file until asked, then creates it (mode 600) and says where it is', () => {
    const dir = dataDir();
    const signing = new LicenseSigningService(loadConfig({ DATA_DIR: dir }));
    const file = join(dir, SIGNING_KEY_FILE);
    expect(existsSync(file)).toBe(false);
    const key = signing.ensureKey();
    expect(key).toEqual({ keyId: expect.stringMatching(/^[0-9a-f]{16}$/), source: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('keeps the key across restarts: a new service on the same DATA_DIR has the same key', () => {
    const dir = dataDir();
    const first = new LicenseSigningService(loadConfig({ DATA_DIR: dir })).ensureKey();
    expect(new LicenseSigningService(loadConfig({ DATA_DIR: dir })).ensureKey()).toEqual(first);
  });

  it('uses LICENSE_SIGNING_KEY when given, writing no file', () => {
    const dir = dataDir();
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const signing = new LicenseSigningService(loadConfig({ DATA_DIR: dir, LICENSE_SIGNING_KEY: pem }));
    expect(signing.ensureKey()).toEqual({ keyId: signing.keyId, source: 'LICENSE_SIGNING_KEY' });
    expect(readdirSync(dir)).not.toContain(SIGNING_KEY_FILE);
  });
});
