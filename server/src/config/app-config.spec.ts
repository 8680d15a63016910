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

  it('accepts a strong production secret', () => {
    expect(loadConfig({ NODE_ENV: 'production', DATA_DIR: tempDir(), JWT_SECRET: strongSecret }).jwt.secret).toBe(strongSecret);
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
});
