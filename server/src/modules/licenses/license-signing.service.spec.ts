import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../config/app-config';
import type { Transactions } from '../../database/transactions';
import { keyIdOf, LicenseSigningService, SIGNING_KEY_FILE } from './license-signing.service';
import type { SigningKeyEntity } from './signing-key.entity';
import type { NewSigningKey, SigningKeysRepository } from './signing-keys.repository';

const dataDir = () => mkdtempSync(join(tmpdir(), 'portal-signing-'));

/** The signing_keys table in memory, with the repository's rules. */
class MemoryKeys {
  rows: SigningKeyEntity[] = [];
  live = async () => this.rows.filter((row) => !row.removed_at).sort((a, b) => b.id - a.id);
  any = async () => this.rows.length > 0;
  findByKid = async (kid: string) => this.rows.find((row) => row.kid === kid) ?? null;
  insert = async (key: NewSigningKey) => {
    if (this.rows.some((row) => row.kid === key.kid)) return false;
    this.rows.push({ ...key, id: this.rows.length + 1, created_at: new Date(), retired_at: null, removed_at: null });
    return true;
  };
  retireAll = async (at: Date) => {
    for (const row of this.rows) if (!row.removed_at && !row.retired_at) Object.assign(row, { retired_at: at, private_key_sealed: null });
  };
  remove = async (kid: string, at: Date) => {
    const newest = Math.max(...this.rows.filter((row) => !row.removed_at).map((row) => row.id));
    const row = this.rows.find((candidate) => candidate.kid === kid && !candidate.removed_at && candidate.id < newest);
    if (row) Object.assign(row, { removed_at: at, private_key_sealed: null });
    return !!row;
  };
}

const transactions = { run: (work: (transaction: unknown) => Promise<unknown>) => work({}) } as unknown as Transactions;

function service(env: Record<string, string>, keys = new MemoryKeys()) {
  const config = loadConfig({ JWT_SECRET: 'a-jwt-secret-of-the-signing-tests-0123456789', ...env });
  return { signing: new LicenseSigningService(config, keys as unknown as SigningKeysRepository, transactions), keys };
}

describe('LicenseSigningService', () => {
  it('writes no key file until asked, then creates it (mode 600), imports it as the first key and says where it is', async () => {
    const dir = dataDir();
    const { signing, keys } = service({ DATA_DIR: dir });
    const file = join(dir, SIGNING_KEY_FILE);
    expect(existsSync(file)).toBe(false);
    const key = await signing.ensureKey();
    expect(key).toEqual({ keyId: expect.stringMatching(/^[0-9a-f]{16}$/), source: file });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(keys.rows.map((row) => row.kid)).toEqual([key.keyId]);
  });

  it('keeps the key id of LICENSE_SIGNING_KEY, writing no file, and stores its private half sealed', async () => {
    const dir = dataDir();
    const privateKey = generateKeyPairSync('ed25519').privateKey;
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const { signing, keys } = service({ DATA_DIR: dir, LICENSE_SIGNING_KEY: pem });
    const kid = keyIdOf(createPublicKey(privateKey));
    expect(await signing.ensureKey()).toEqual({ keyId: kid, source: 'LICENSE_SIGNING_KEY' });
    expect(readdirSync(dir)).not.toContain(SIGNING_KEY_FILE);
    expect(keys.rows[0].private_key_sealed).toMatch(/^v1\./);
    expect(keys.rows[0].private_key_sealed).not.toContain('PRIVATE KEY');
  });

  it('signs with a new key after a rotation, lists the old one until it is removed, and never removes the current one', async () => {
    const { signing } = service({ DATA_DIR: dataDir() });
    const first = await signing.current();
    const rotated = await signing.rotate();
    const second = await signing.current();
    expect(second.kid).toBe(rotated.kid);
    expect(second.kid).not.toBe(first.kid);
    const data = Buffer.from('{"a":1}');
    expect(verify(null, data, createPublicKey(second.publicKeyPem), second.sign(data))).toBe(true);
    expect((await signing.list()).map((key) => [key.kid, key.current])).toEqual([
      [second.kid, true],
      [first.kid, false],
    ]);
    await expect(signing.remove(second.kid)).rejects.toMatchObject({ status: 409 });
    await signing.remove(first.kid);
    expect((await signing.list()).map((key) => key.kid)).toEqual([second.kid]);
    await expect(signing.remove(first.kid)).rejects.toMatchObject({ status: 404 });
  });

  it('imports the configured key before the first rotation, so what it signed still verifies', async () => {
    const { signing, keys } = service({ DATA_DIR: dataDir() });
    await signing.rotate();
    expect(keys.rows).toHaveLength(2);
    expect(keys.rows[0].retired_at).not.toBeNull();
  });

  it('refuses to sign when the current key cannot be opened with this SIGNING_KEYS_SECRET', async () => {
    const dir = dataDir();
    const { signing, keys } = service({ DATA_DIR: dir, SIGNING_KEYS_SECRET: 'one-signing-keys-secret-0123456789abcdef' });
    await signing.rotate();
    const other = service({ DATA_DIR: dir, SIGNING_KEYS_SECRET: 'another-signing-keys-secret-0123456789ab' }, keys).signing;
    await expect(other.current()).rejects.toThrow(/cannot be decrypted: SIGNING_KEYS_SECRET/);
  });
});
