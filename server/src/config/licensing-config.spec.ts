import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from './app-config';

const base = () => ({ DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-licensing-config-')) });

describe('licensing configuration', () => {
  it('defaults to the sandbox payment provider, a generated signing key, one day of device silence and sync retries from 30 s to an hour', () => {
    expect(loadConfig(base()).licensing).toEqual({
      paymentProvider: 'sandbox',
      paymentProviderExplicit: false,
      signingKeyPem: null,
      signingKeysEncryptionKey: expect.any(Buffer),
      deviceInactiveAfterSeconds: 86400,
      syncApiToken: null,
      sync: { workerSeconds: 10, batchSize: 500, retrySeconds: 30, retryMaxSeconds: 3600 },
    });
  });

  it('bounds the sync batch to what the sync API accepts', () => {
    expect(loadConfig({ ...base(), LICENSE_SERVER_SYNC_BATCH: '50' }).licensing.sync.batchSize).toBe(50);
    expect(() => loadConfig({ ...base(), LICENSE_SERVER_SYNC_BATCH: '501' })).toThrow(
      /LICENSE_SERVER_SYNC_BATCH must be an integer from 1 to 500/,
    );
  });

  it('stops the start on an unknown payment provider', () => {
    expect(() => loadConfig({ ...base(), PAYMENT_PROVIDER: 'paypal-ish' })).toThrow(
      /PAYMENT_PROVIDER must be one of sandbox \(got "paypal-ish"\)/,
    );
  });

  it('accepts an Ed25519 PEM, also on one line with \\n escapes, and refuses other keys', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(loadConfig({ ...base(), LICENSE_SIGNING_KEY: pem }).licensing.signingKeyPem).toBe(pem);
    expect(loadConfig({ ...base(), LICENSE_SIGNING_KEY: pem.replace(/\n/g, '\\n') }).licensing.signingKeyPem).toBe(pem);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    expect(() => loadConfig({ ...base(), LICENSE_SIGNING_KEY: rsa })).toThrow(/LICENSE_SIGNING_KEY must be an Ed25519 private key/);
    expect(() => loadConfig({ ...base(), LICENSE_SIGNING_KEY: 'garbage' })).toThrow(/LICENSE_SIGNING_KEY/);
  });

  it("derives the signing keys' encryption key from the JWT secret unless SIGNING_KEYS_SECRET is given (32 characters at least)", () => {
    const dir = base();
    const derived = loadConfig({ ...dir, JWT_SECRET: 'j'.repeat(40) }).licensing.signingKeysEncryptionKey;
    expect(derived).toHaveLength(32);
    expect(loadConfig({ ...dir, JWT_SECRET: 'j'.repeat(40) }).licensing.signingKeysEncryptionKey.equals(derived)).toBe(true);
    const given = loadConfig({ ...dir, JWT_SECRET: 'j'.repeat(40), SIGNING_KEYS_SECRET: 's'.repeat(40) }).licensing
      .signingKeysEncryptionKey;
    expect(given).toHaveLength(32);
    expect(given.equals(derived)).toBe(false);
    expect(() => loadConfig({ ...dir, SIGNING_KEYS_SECRET: 'short' })).toThrow(/SIGNING_KEYS_SECRET must be at least 32 characters/);
  });

  it('bounds DEVICE_INACTIVE_AFTER_SECONDS', () => {
    expect(loadConfig({ ...base(), DEVICE_INACTIVE_AFTER_SECONDS: '600' }).licensing.deviceInactiveAfterSeconds).toBe(600);
    expect(() => loadConfig({ ...base(), DEVICE_INACTIVE_AFTER_SECONDS: '0' })).toThrow(/DEVICE_INACTIVE_AFTER_SECONDS must be an integer/);
  });
});
