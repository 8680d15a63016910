import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';

const tempDir = () => mkdtempSync(join(tmpdir(), 'portal-config-'));
const strongSecret = 'k3J9x!Qm2Zp8Lr5Tv7Wy0Ab4Cd6Ef1Gh';

describe('loadConfig', () => {
  it('defaults to port 3000, ./data and SQLite inside DATA_DIR', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir });
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ type: 'sqlite', path: join(dataDir, 'portal.sqlite') });
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.publicUrlSet).toBe(false);
  });

  it('tells a PUBLIC_URL that was set (trailing slashes dropped) from the localhost default', () => {
    const config = loadConfig({ DATA_DIR: tempDir(), PUBLIC_URL: 'https://portal.example.com/' });
    expect(config).toMatchObject({ publicUrl: 'https://portal.example.com', publicUrlSet: true });
  });

  it('reads DATABASE_URL for MySQL and MariaDB', () => {
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'mysql://u:p@db:3306/portal' }).database).toMatchObject({
      type: 'mysql',
      flavor: 'mysql',
      url: 'mysql://u:p@db:3306/portal',
    });
    expect(loadConfig({ DATA_DIR: tempDir(), DATABASE_URL: 'mariadb://u:p@db/portal' }).database).toMatchObject({
      type: 'mysql',
      flavor: 'mariadb',
      url: 'mysql://u:p@db/portal',
    });
  });

  it('stops a production start without JWT_SECRET, saying what to do', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toThrow(/JWT_SECRET is required when NODE_ENV=production/);
  });

  it.each(['short', 'a'.repeat(40)])('stops a production start with a weak JWT_SECRET (%s)', (secret) => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir(), JWT_SECRET: secret })).toThrow(/JWT_SECRET is too weak/);
  });

  /** What a production start needs besides the secret. */
  const production = {
    NODE_ENV: 'production',
    JWT_SECRET: strongSecret,
    PUBLIC_URL: 'https://portal.example.com',
    PAYMENT_PROVIDER: 'sandbox',
  };

  it('accepts a strong production secret', () => {
    expect(loadConfig({ ...production, DATA_DIR: tempDir() }).jwt.secret).toBe(strongSecret);
  });

  describe('TRUST_PROXY, read as Express reads trust proxy', () => {
    it.each([
      [undefined, false],
      ['', false],
      ['false', false],
      ['FALSE', false],
      ['true', true],
      [' True ', true],
      ['0', 0],
      ['1', 1],
      ['2', 2],
      ['loopback', ['loopback']],
      ['loopback, 10.0.0.0/8', ['loopback', '10.0.0.0/8']],
      ['172.18.0.2,uniquelocal,linklocal', ['172.18.0.2', 'uniquelocal', 'linklocal']],
      ['::1, fd00::/8', ['::1', 'fd00::/8']],
      ['10.0.0.0/255.0.0.0', ['10.0.0.0/255.0.0.0']],
    ])('TRUST_PROXY=%j is %j', (raw, expected) => {
      expect(loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: raw }).http.trustProxy).toEqual(expected);
    });

    it.each(['yes', '1.5', '-1', '101', 'loopback,', '10.0.0.0/33', 'proxy.example.com', '1,2'])('refuses TRUST_PROXY=%j', (raw) => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), TRUST_PROXY: raw })).toThrow(
        /TRUST_PROXY must be true, false, a number of proxy hops/,
      );
    });
  });

  describe('BODY_LIMIT, read as body-parser reads a limit', () => {
    it.each([
      [undefined, 1024 ** 2],
      ['1mb', 1024 ** 2],
      ['500kb', 500 * 1024],
      ['14KB', 14 * 1024],
      ['1.5mb', 1.5 * 1024 ** 2],
      ['4096', 4096],
      [' 2 mb ', 2 * 1024 ** 2],
    ])('BODY_LIMIT=%j is %j bytes', (raw, bytes) => {
      expect(loadConfig({ DATA_DIR: tempDir(), BODY_LIMIT: raw }).http.bodyLimit).toBe(bytes);
    });

    it.each(['lots', '1tb', '-1mb', '100', '2gb', '1 m b'])('refuses BODY_LIMIT=%j', (raw) => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), BODY_LIMIT: raw })).toThrow(/BODY_LIMIT must be a size from 1kb to 1gb/);
    });
  });

  describe('production', () => {
    it('refuses to start on the sandbox payment provider unless PAYMENT_PROVIDER names it', () => {
      const { PAYMENT_PROVIDER: _named, ...implicit } = production;
      expect(() => loadConfig({ ...implicit, DATA_DIR: tempDir() })).toThrow(/PAYMENT_PROVIDER is required when NODE_ENV=production/);
      expect(loadConfig({ ...production, DATA_DIR: tempDir() }).licensing).toMatchObject({
        paymentProvider: 'sandbox',
        paymentProviderExplicit: true,
      });
    });

    it('development keeps the sandbox as its default', () => {
      expect(loadConfig({ DATA_DIR: tempDir() }).licensing).toMatchObject({ paymentProvider: 'sandbox', paymentProviderExplicit: false });
    });

    it('requires PUBLIC_URL or ALLOWED_HOSTS', () => {
      const { PUBLIC_URL: _url, ...withoutUrl } = production;
      expect(() => loadConfig({ ...withoutUrl, DATA_DIR: tempDir() })).toThrow(/PUBLIC_URL \(or ALLOWED_HOSTS\) is required/);
      const config = loadConfig({ ...withoutUrl, DATA_DIR: tempDir(), ALLOWED_HOSTS: 'Portal.Example.com, portal.example.com:8443' });
      expect(config).toMatchObject({
        allowedHosts: ['portal.example.com', 'portal.example.com:8443'],
        publicUrl: 'https://portal.example.com',
        publicUrlSet: false,
      });
    });

    it.each(['portal.example.com/path', 'https://portal.example.com', 'a b', ','])('refuses ALLOWED_HOSTS=%j', (raw) => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), ALLOWED_HOSTS: raw })).toThrow(/ALLOWED_HOSTS must list host or host:port names/);
    });
  });

  it('generates a development secret once, keeps it in DATA_DIR (mode 600), and reuses it', () => {
    const dataDir = tempDir();
    const first = loadConfig({ DATA_DIR: dataDir }).jwt.secret;
    expect(first.length).toBeGreaterThanOrEqual(48);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).jwt.secret).toBe(first);
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: tempDir(), PORT: 'eighty', DATABASE_URL: 'postgres://x/y', ADMIN_EMAIL: 'nobody', ADMIN_PASSWORD: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['PORT', 'DATABASE_URL', 'ADMIN_EMAIL', 'ADMIN_PASSWORD']) expect(message).toContain(name);
  });

  describe('storage driver', () => {
    it('keeps files on the local disk unless STORAGE_DRIVER says s3', () => {
      expect(loadConfig({ DATA_DIR: tempDir() }).storage).toMatchObject({ driver: 'local', s3: null });
    });

    it('stops the start when STORAGE_DRIVER=s3 names no bucket, saying which variable is missing', () => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET is required when STORAGE_DRIVER=s3/);
    });

    it('reads the bucket, endpoint and modes, with path-style addressing by default for a custom endpoint', () => {
      const config = loadConfig({
        DATA_DIR: tempDir(),
        STORAGE_DRIVER: 's3',
        S3_BUCKET: 'portal-files',
        S3_ENDPOINT: 'http://minio:9000/',
        S3_DOWNLOADS: 'redirect',
      });
      expect(config.storage).toMatchObject({
        driver: 's3',
        s3: {
          bucket: 'portal-files',
          endpoint: 'http://minio:9000',
          region: 'us-east-1',
          forcePathStyle: true,
          downloads: 'redirect',
          presignSeconds: 60,
        },
      });
      const aws = loadConfig({ DATA_DIR: tempDir(), STORAGE_DRIVER: 's3', S3_BUCKET: 'b', S3_REGION: 'eu-central-1' }).storage.s3;
      expect(aws).toMatchObject({ endpoint: null, region: 'eu-central-1', forcePathStyle: false, downloads: 'proxy' });
    });

    it('refuses an unknown driver, download mode or endpoint, and uploads larger than one S3 copy', () => {
      expect(() => loadConfig({ DATA_DIR: tempDir(), STORAGE_DRIVER: 'ftp' })).toThrow(/STORAGE_DRIVER must be local or s3/);
      const error = (() => {
        try {
          loadConfig({
            DATA_DIR: tempDir(),
            STORAGE_DRIVER: 's3',
            S3_BUCKET: 'b',
            S3_ENDPOINT: 'minio:9000',
            S3_DOWNLOADS: 'direct',
            MAX_UPLOAD_BYTES: String(6 * 1024 ** 3),
          });
        } catch (caught) {
          return (caught as Error).message;
        }
        return '';
      })();
      for (const name of ['S3_ENDPOINT', 'S3_DOWNLOADS', 'MAX_UPLOAD_BYTES']) expect(error).toContain(name);
    });
  });

  it('reads the account settings: reset-link lifetime, required two-factor sign-in and its encryption key', () => {
    const defaults = loadConfig({ DATA_DIR: tempDir(), JWT_SECRET: strongSecret });
    expect(defaults.passwordResetTtlSeconds).toBe(3600);
    expect(defaults.mfa.required).toBe(false);
    expect(defaults.mfa.encryptionKey).toHaveLength(32);
    const set = loadConfig({
      DATA_DIR: tempDir(),
      JWT_SECRET: strongSecret,
      PASSWORD_RESET_TTL_SECONDS: '900',
      ADMIN_REQUIRE_MFA: 'true',
      MFA_ENCRYPTION_KEY: 'x'.repeat(40),
    });
    expect(set).toMatchObject({ passwordResetTtlSeconds: 900, mfa: { required: true } });
    // Its own key, not one derived from the JWT secret.
    expect(set.mfa.encryptionKey.equals(defaults.mfa.encryptionKey)).toBe(false);
    const bad = () =>
      loadConfig({ DATA_DIR: tempDir(), ADMIN_REQUIRE_MFA: 'yes', MFA_ENCRYPTION_KEY: 'short', PASSWORD_RESET_TTL_SECONDS: '5' });
    expect(bad).toThrow('ADMIN_REQUIRE_MFA must be true or false (got "yes")');
    expect(bad).toThrow('MFA_ENCRYPTION_KEY must be at least 32 characters');
    expect(bad).toThrow('PASSWORD_RESET_TTL_SECONDS must be an integer from 60 to 604800 (got "5")');
  });

  it('writes access rows to the database unless ACCESS_LOG_OUTPUT says stdout or both, and refuses another output', () => {
    expect(loadConfig({ DATA_DIR: tempDir() }).logs.access.output).toBe('db');
    expect(loadConfig({ DATA_DIR: tempDir(), ACCESS_LOG_OUTPUT: 'stdout' }).logs.access.output).toBe('stdout');
    expect(loadConfig({ DATA_DIR: tempDir(), ACCESS_LOG_OUTPUT: ' Both ' }).logs.access.output).toBe('both');
    expect(() => loadConfig({ DATA_DIR: tempDir(), ACCESS_LOG_OUTPUT: 'file' })).toThrow(
      'ACCESS_LOG_OUTPUT must be db, stdout or both (got "file")',
    );
  });
});
