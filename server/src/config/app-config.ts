import { createPrivateKey, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compile as compileTrustedProxies } from 'proxy-addr';
import { isCommonPassword } from '../common/password-policy';

export type DatabaseConfig =
  { type: 'sqlite'; path: string } | { type: 'mysql'; url: string; poolSize: number; flavor: 'mysql' | 'mariadb' };

/** Every setting the portal reads, resolved and validated once at boot. */
export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  /** Base of links in mails (PUBLIC_URL, else https://{first of ALLOWED_HOSTS}, else http://localhost:$PORT). */
  publicUrl: string;
  /** PUBLIC_URL was given: download links use it; otherwise they follow the origin of the request. */
  publicUrlSet: boolean;
  /** ALLOWED_HOSTS: hosts (host or host:port) links may be made for without PUBLIC_URL; null: any, development only. */
  allowedHosts: string[] | null;
  dataDir: string;
  database: DatabaseConfig;
  admin: { email: string; password: string | null };
  mfa: {
    /** ADMIN_REQUIRE_MFA: an admin without two-factor sign-in must enrol at the next sign-in. */
    required: boolean;
    /** Key that encrypts the admins' TOTP secrets at rest (from MFA_ENCRYPTION_KEY, else from the JWT secret). */
    encryptionKey: Buffer;
  };
  jwt: { secret: string; ttlSeconds: number };
  mail: { smtpUrl: string | null; from: string };
  http: {
    /** Largest request body in bytes (BODY_LIMIT: bytes, or a size such as 500kb or 1mb). */
    bodyLimit: number;
    trustProxy: TrustProxy;
    /** Idle keep-alive connections stay open this long (HTTP_KEEP_ALIVE_SECONDS): longer than a balancer's idle timeout, so it never reuses a closing one. */
    keepAliveSeconds: number;
  };
  shutdown: {
    /** SHUTDOWN_DELAY_SECONDS: on SIGTERM, keep serving this long while /api/health says 'draining'. */
    delaySeconds: number;
    /** SHUTDOWN_GRACE_SECONDS: then wait at most this long for requests in flight before closing their connections. */
    graceSeconds: number;
  };
  throttle: {
    /** REDIS_URL: where rate-limit counters live when several instances share them; null: this process's memory. */
    redisUrl: string | null;
    /** REDIS_KEY_PREFIX: starts every counter's key, so several portals (or test runs) can share one Redis. */
    redisKeyPrefix: string;
    windowSeconds: number;
    loginFailuresPerAccount: number;
    loginFailuresPerIp: number;
    registrationsPerIp: number;
    activationCallsPerIpPerMinute: number;
    activationCallsPerKeyPerMinute: number;
    /** Unknown license keys one address may send per throttle window before it is refused (ACTIVATION_UNKNOWN_KEYS_PER_IP). */
    activationUnknownKeysPerIp: number;
  };
  verificationTokenTtlSeconds: number;
  passwordResetTtlSeconds: number;
  clientDist: string | null;
  logLevel: 'error' | 'warn' | 'log' | 'debug';
  licensing: LicensingConfig;
  storage: StorageConfig;
  downloads: DownloadsConfig;
  logs: LogsConfig;
}

export const LOG_TYPES = ['audit', 'access', 'remote', 'downloads'] as const;
export type LogType = (typeof LOG_TYPES)[number];
export const ACCESS_LOG_OUTPUTS = ['db', 'stdout', 'both'] as const;
export type AccessLogOutput = (typeof ACCESS_LOG_OUTPUTS)[number];

export interface LogsConfig {
  access: {
    /** ACCESS_LOG: every API request, only responses of 400 and up, or none. */
    mode: 'all' | 'errors' | 'off';
    /** ACCESS_LOG_SAMPLE: the share of responses under 400 that get a row (0-1). */
    sampleRatio: number;
    /** ACCESS_LOG_OUTPUT: the database (System Logs), stdout as JSON lines (for a log shipper), or both. */
    output: AccessLogOutput;
  };
  /** Days each log keeps its rows (LOG_RETENTION_DAYS, or LOG_RETENTION_DAYS_AUDIT/_ACCESS/_REMOTE/_DOWNLOADS). */
  retentionDays: Record<LogType, number>;
}

export interface StorageConfig {
  /** Root of the local-disk storage driver (DATA_DIR/storage unless STORAGE_DIR is set). */
  dir: string;
  /** Largest accepted upload in bytes (MAX_UPLOAD_BYTES); beyond it an upload is refused with 413. */
  maxUploadBytes: number;
  /** STORAGE_DRIVER: files on the local disk (one host) or in an S3-compatible object store (several instances). */
  driver: 'local' | 's3';
  /** The object store when driver is s3; credentials come from the AWS SDK's own chain (AWS_ACCESS_KEY_ID, ...). */
  s3: S3Config | null;
}

export interface S3Config {
  bucket: string;
  /** S3_ENDPOINT: the store's URL for MinIO and other S3-compatible stores; null: AWS. */
  endpoint: string | null;
  /** S3_REGION (default us-east-1, which MinIO and most compatible stores accept). */
  region: string;
  /** S3_FORCE_PATH_STYLE: bucket in the path (http://host/bucket/key), as MinIO expects; default true when S3_ENDPOINT is set. */
  forcePathStyle: boolean;
  /** S3_DOWNLOADS: the portal streams the bytes (proxy) or responds 302 to a presigned URL (redirect). */
  downloads: 'proxy' | 'redirect';
  /** S3_PRESIGN_SECONDS: how long a redirect's presigned URL works. */
  presignSeconds: number;
}

/** S3 copies an object in one request up to 5 GiB, which is how an upload moves from its temporary key into place. */
export const S3_MAX_UPLOAD_BYTES = 5 * 1024 ** 3;

export interface DownloadsConfig {
  /** HMAC key of signed download links: DOWNLOAD_LINK_SECRET, else derived from the JWT secret. */
  linkSecret: Buffer;
  linkTtlSeconds: number;
}

/** Express's `trust proxy`: off, every hop, a number of hops, or the addresses and subnets of trusted proxies. */
export type TrustProxy = boolean | number | string[];

export const PAYMENT_PROVIDERS = ['sandbox'] as const;

export interface LicensingConfig {
  /** Ed25519 private key (PEM) that becomes the first signing key; null: generated once in DATA_DIR. Rotated keys live in the database. */
  signingKeyPem: string | null;
  /** Key that encrypts the signing keys' private halves at rest (from SIGNING_KEYS_SECRET, else from the JWT secret). */
  signingKeysEncryptionKey: Buffer;
  paymentProvider: (typeof PAYMENT_PROVIDERS)[number];
  /** PAYMENT_PROVIDER was set; production refuses to start on the sandbox default. */
  paymentProviderExplicit: boolean;
  /** A device that has not reported for this long is shown (and stored) as inactive. */
  deviceInactiveAfterSeconds: number;
  /** The token other portals send to use this one as their license server (LICENSE_SERVER_SYNC_TOKEN); null: no sync API. */
  syncApiToken: string | null;
  sync: LicenseServerSyncConfig;
}

/** How this portal keeps an external license server in step. */
export interface LicenseServerSyncConfig {
  /** How often the sync worker continues a full sync and delivers due retries (LICENSE_SERVER_SYNC_WORKER_SECONDS). */
  workerSeconds: number;
  /** Items per push (LICENSE_SERVER_SYNC_BATCH, at most 500). */
  batchSize: number;
  /** First retry after a failed push (LICENSE_SERVER_RETRY_SECONDS); doubles with each failure up to retryMaxSeconds. */
  retrySeconds: number;
  retryMaxSeconds: number;
}

export class ConfigError extends Error {
  constructor(problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

const MIN_SECRET_LENGTH = 32;
// server/src/config when run from source, server/dist/server/src/config when built.
export const REPO_ROOT = resolve(__dirname, __dirname.includes('/dist/') ? '../../../../..' : '../../..');
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A host name or [IPv6] address with an optional port: what a Host header may name. */
export const HOST_NAME = /^([a-z\d.-]+|\[[\da-f:.]+\])(:\d{1,5})?$/i;

/** Reads the environment once; collects every problem so one failed start lists them all. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const problems: string[] = [];
  const nodeEnv = (env.NODE_ENV ?? 'development') as AppConfig['env'];
  if (!['development', 'production', 'test'].includes(nodeEnv)) {
    problems.push(`NODE_ENV must be development, production or test (got "${env.NODE_ENV}")`);
  }

  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return value;
  };

  const bool = (name: string, fallback: boolean): boolean => {
    const raw = env[name]?.trim().toLowerCase();
    if (raw === undefined || raw === '') return fallback;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };

  const port = int('PORT', 3000, 0, 65535);
  const dataDir = resolve(env.DATA_DIR || './data');
  const database = parseDatabase(env.DATABASE_URL, dataDir, int('DATABASE_POOL_SIZE', 10, 1, 200), problems);

  const adminEmail = (env.ADMIN_EMAIL || 'admin@example.com').trim().toLowerCase();
  if (!EMAIL.test(adminEmail)) problems.push(`ADMIN_EMAIL must be an e-mail address (got "${env.ADMIN_EMAIL}")`);
  const adminPassword = env.ADMIN_PASSWORD || null;
  if (adminPassword !== null && adminPassword.length < 8) problems.push('ADMIN_PASSWORD must be at least 8 characters');
  else if (adminPassword !== null && isCommonPassword(adminPassword)) problems.push('ADMIN_PASSWORD is a common password: choose another');

  const jwtSecret = resolveJwtSecret(env.JWT_SECRET, nodeEnv, dataDir, problems);
  const ttlSeconds = int('JWT_TTL_SECONDS', 24 * 3600, 60, 30 * 24 * 3600);

  const allowedHosts = parseAllowedHosts(env.ALLOWED_HOSTS, problems);
  // Mails need one base: PUBLIC_URL, else the first allowed host over https, else this machine.
  const publicUrl = (env.PUBLIC_URL || (allowedHosts ? `https://${allowedHosts[0]}` : `http://localhost:${port}`)).replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+/.test(publicUrl)) problems.push(`PUBLIC_URL must be an http(s) URL (got "${env.PUBLIC_URL}")`);
  if (nodeEnv === 'production' && !env.PUBLIC_URL && !allowedHosts)
    problems.push(
      'PUBLIC_URL (or ALLOWED_HOSTS) is required when NODE_ENV=production: download links and install commands must not take their host from the request',
    );

  const redisUrl = env.REDIS_URL?.trim() || null;
  if (redisUrl && !/^rediss?:\/\/[^/]+/.test(redisUrl)) problems.push('REDIS_URL must be a redis:// or rediss:// URL');

  const smtpUrl = env.SMTP_URL || null;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) problems.push('SMTP_URL must start with smtp:// or smtps://');

  const logLevel = (env.LOG_LEVEL || (nodeEnv === 'test' ? 'warn' : 'log')) as AppConfig['logLevel'];
  if (!['error', 'warn', 'log', 'debug'].includes(logLevel)) problems.push('LOG_LEVEL must be error, warn, log or debug');

  const config: AppConfig = {
    env: nodeEnv,
    port,
    host: env.HOST || '0.0.0.0',
    publicUrl,
    publicUrlSet: Boolean(env.PUBLIC_URL),
    allowedHosts,
    dataDir,
    database,
    admin: { email: adminEmail, password: adminPassword },
    mfa: {
      required: bool('ADMIN_REQUIRE_MFA', false),
      encryptionKey: secretOrDerived(env, 'MFA_ENCRYPTION_KEY', { jwtSecret, purpose: 'mfa-secrets', deriveGiven: true }, problems),
    },
    jwt: { secret: jwtSecret, ttlSeconds },
    mail: { smtpUrl, from: env.MAIL_FROM || 'StreamHub Portal <no-reply@localhost>' },
    http: {
      bodyLimit: byteSize('BODY_LIMIT', env.BODY_LIMIT || '1mb', problems),
      trustProxy: parseTrustProxy(env.TRUST_PROXY, problems),
      keepAliveSeconds: int('HTTP_KEEP_ALIVE_SECONDS', 65, 1, 3600),
    },
    shutdown: {
      delaySeconds: int('SHUTDOWN_DELAY_SECONDS', 0, 0, 300),
      graceSeconds: int('SHUTDOWN_GRACE_SECONDS', 25, 0, 3600),
    },
    throttle: {
      redisUrl,
      redisKeyPrefix: env.REDIS_KEY_PREFIX?.trim() || 'portal',
      windowSeconds: int('THROTTLE_WINDOW_SECONDS', 15 * 60, 1, 24 * 3600),
      loginFailuresPerAccount: int('THROTTLE_LOGIN_FAILURES_PER_ACCOUNT', 5, 1, 10_000),
      loginFailuresPerIp: int('THROTTLE_LOGIN_FAILURES_PER_IP', 20, 1, 100_000),
      registrationsPerIp: int('THROTTLE_REGISTRATIONS_PER_IP', 10, 1, 100_000),
      activationCallsPerIpPerMinute: int('ACTIVATION_CALLS_PER_IP_PER_MINUTE', 600, 1, 1_000_000_000),
      activationCallsPerKeyPerMinute: int('ACTIVATION_CALLS_PER_KEY_PER_MINUTE', 60, 1, 1_000_000_000),
      activationUnknownKeysPerIp: int('ACTIVATION_UNKNOWN_KEYS_PER_IP', 20, 1, 1_000_000_000),
    },
    verificationTokenTtlSeconds: int('VERIFICATION_TOKEN_TTL_SECONDS', 48 * 3600, 60, 30 * 24 * 3600),
    passwordResetTtlSeconds: int('PASSWORD_RESET_TTL_SECONDS', 3600, 60, 7 * 24 * 3600),
    clientDist: env.CLIENT_DIST === '' ? null : resolve(env.CLIENT_DIST || join(REPO_ROOT, 'client/dist')),
    logLevel,
    licensing: {
      signingKeyPem: parseSigningKey(env.LICENSE_SIGNING_KEY, problems),
      // Derived like MFA_ENCRYPTION_KEY: every instance already shares JWT_SECRET; a separate secret lets JWT_SECRET change.
      signingKeysEncryptionKey: secretOrDerived(
        env,
        'SIGNING_KEYS_SECRET',
        { jwtSecret, purpose: 'signing-keys', deriveGiven: true },
        problems,
      ),
      paymentProvider: parsePaymentProvider(env.PAYMENT_PROVIDER, problems),
      paymentProviderExplicit: Boolean(env.PAYMENT_PROVIDER?.trim()),
      deviceInactiveAfterSeconds: int('DEVICE_INACTIVE_AFTER_SECONDS', 24 * 3600, 1, 365 * 24 * 3600),
      syncApiToken: syncApiToken(env.LICENSE_SERVER_SYNC_TOKEN, problems),
      sync: {
        workerSeconds: int('LICENSE_SERVER_SYNC_WORKER_SECONDS', 10, 1, 3600),
        batchSize: int('LICENSE_SERVER_SYNC_BATCH', 500, 1, 500),
        retrySeconds: int('LICENSE_SERVER_RETRY_SECONDS', 30, 1, 24 * 3600),
        retryMaxSeconds: int('LICENSE_SERVER_RETRY_MAX_SECONDS', 3600, 1, 7 * 24 * 3600),
      },
    },
    storage: parseStorage(env, dataDir, int, problems),
    downloads: {
      linkSecret: secretOrDerived(env, 'DOWNLOAD_LINK_SECRET', { jwtSecret, purpose: 'download-links' }, problems),
      linkTtlSeconds: int('DOWNLOAD_LINK_TTL_SECONDS', 15 * 60, 1, 7 * 24 * 3600),
    },
    logs: parseLogs(env, int, problems),
  };
  if (nodeEnv === 'production' && !config.licensing.paymentProviderExplicit)
    problems.push(
      'PAYMENT_PROVIDER is required when NODE_ENV=production: the sandbox provider marks every order paid without charging anyone; set PAYMENT_PROVIDER=sandbox only if that is what you want',
    );
  if (problems.length) throw new ConfigError(problems);
  return config;
}

function parseStorage(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): StorageConfig {
  const driver = (env.STORAGE_DRIVER?.trim().toLowerCase() || 'local') as StorageConfig['driver'];
  if (driver !== 'local' && driver !== 's3') problems.push(`STORAGE_DRIVER must be local or s3 (got "${env.STORAGE_DRIVER}")`);
  const maxUploadBytes = int('MAX_UPLOAD_BYTES', 2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER);
  const storage: StorageConfig = { dir: resolve(env.STORAGE_DIR || join(dataDir, 'storage')), maxUploadBytes, driver, s3: null };
  if (driver !== 's3') return storage;

  const bucket = env.S3_BUCKET?.trim() ?? '';
  if (!bucket) problems.push('S3_BUCKET is required when STORAGE_DRIVER=s3: name the bucket that holds the uploaded files');
  const endpoint = env.S3_ENDPOINT?.trim().replace(/\/+$/, '') || null;
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint)) problems.push(`S3_ENDPOINT must be an http(s) URL (got "${env.S3_ENDPOINT}")`);
  const pathStyle = env.S3_FORCE_PATH_STYLE?.trim().toLowerCase();
  if (pathStyle && !['true', 'false', '1', '0'].includes(pathStyle)) problems.push('S3_FORCE_PATH_STYLE must be true or false');
  const downloads = (env.S3_DOWNLOADS?.trim().toLowerCase() || 'proxy') as S3Config['downloads'];
  if (downloads !== 'proxy' && downloads !== 'redirect')
    problems.push(`S3_DOWNLOADS must be proxy or redirect (got "${env.S3_DOWNLOADS}")`);
  if (maxUploadBytes > S3_MAX_UPLOAD_BYTES)
    problems.push(`MAX_UPLOAD_BYTES must be at most ${S3_MAX_UPLOAD_BYTES} (5 GiB) with STORAGE_DRIVER=s3`);
  storage.s3 = {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || 'us-east-1',
    forcePathStyle: pathStyle ? pathStyle === 'true' || pathStyle === '1' : endpoint !== null,
    downloads,
    presignSeconds: int('S3_PRESIGN_SECONDS', 60, 1, 7 * 24 * 3600),
  };
  return storage;
}

/** A size as body-parser reads one (bytes, or b, kb, mb, gb in units of 1024), in bytes. */
function byteSize(name: string, raw: string, problems: string[]): number {
  const match = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  const bytes = match ? Math.floor(Number(match[1]) * 1024 ** ['b', 'kb', 'mb', 'gb'].indexOf((match[2] ?? 'b').toLowerCase())) : NaN;
  if (!(bytes >= 1024 && bytes <= 1024 ** 3)) {
    problems.push(`${name} must be a size from 1kb to 1gb, such as 500kb or 1mb (got "${raw}")`);
    return 1024 ** 2;
  }
  return bytes;
}

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** As Express reads `trust proxy`: a boolean, proxy hops (compose uses 1), or a list of addresses, CIDR subnets and names. */
function parseTrustProxy(raw: string | undefined, problems: string[]): TrustProxy {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops <= 100) return hops;
  } else {
    const list = value.split(',').map((entry) => entry.trim());
    try {
      // proxy-addr reads a bare number as an IPv4 address ("1" is 0.0.0.1); in a list, only full addresses count.
      if (list.every((entry) => /[.:]/.test(entry) || TRUST_PROXY_NAMES.has(entry))) {
        compileTrustedProxies(list);
        return list;
      }
    } catch {
      // reported below
    }
  }
  problems.push(
    `TRUST_PROXY must be true, false, a number of proxy hops (0 to 100), or a comma-separated list of addresses, subnets (10.0.0.0/8) and loopback, linklocal or uniquelocal (got "${raw}")`,
  );
  return false;
}

/** ALLOWED_HOSTS: comma-separated host or host:port names, e.g. "portal.example.com, portal.example.com:8443". */
function parseAllowedHosts(raw: string | undefined, problems: string[]): string[] | null {
  if (!raw?.trim()) return null;
  const hosts = raw.split(',').map((host) => host.trim().toLowerCase());
  const bad = hosts.filter((host) => !HOST_NAME.test(host));
  if (bad.length) problems.push(`ALLOWED_HOSTS must list host or host:port names, separated by commas (not "${bad.join('", "')}")`);
  return hosts;
}

/** Falls back to a key derived from the JWT secret (per `purpose`), so every instance agrees without another file. */
function secretOrDerived(
  env: NodeJS.ProcessEnv,
  name: string,
  { jwtSecret, purpose, deriveGiven = false }: { jwtSecret: string; purpose: string; deriveGiven?: boolean },
  problems: string[],
): Buffer {
  const given = env[name];
  if (given && given.length < MIN_SECRET_LENGTH) problems.push(`${name} must be at least ${MIN_SECRET_LENGTH} characters`);
  if (given && !deriveGiven) return Buffer.from(given, 'utf8');
  return Buffer.from(hkdfSync('sha256', given || jwtSecret || 'unset', 'streamhub-portal', purpose, 32));
}

/** An Ed25519 private key in PEM; literal `\n` sequences are accepted so the key fits on one environment line. */
function parseSigningKey(raw: string | undefined, problems: string[]): string | null {
  if (!raw) return null;
  const pem = raw.includes('\\n') ? raw.replace(/\\n/g, '\n') : raw;
  try {
    if (createPrivateKey(pem).asymmetricKeyType === 'ed25519') return pem;
  } catch {
    // reported below
  }
  problems.push('LICENSE_SIGNING_KEY must be an Ed25519 private key in PEM (e.g. `openssl genpkey -algorithm ed25519`)');
  return null;
}

function syncApiToken(raw: string | undefined, problems: string[]): string | null {
  const token = raw?.trim();
  if (!token) return null;
  if (token.length < 24) problems.push('LICENSE_SERVER_SYNC_TOKEN must be at least 24 characters');
  return token;
}

function parsePaymentProvider(raw: string | undefined, problems: string[]): LicensingConfig['paymentProvider'] {
  const value = (raw || 'sandbox').trim().toLowerCase();
  if ((PAYMENT_PROVIDERS as readonly string[]).includes(value)) return value as LicensingConfig['paymentProvider'];
  problems.push(`PAYMENT_PROVIDER must be one of ${PAYMENT_PROVIDERS.join(', ')} (got "${raw}")`);
  return 'sandbox';
}

function parseDatabase(url: string | undefined, dataDir: string, poolSize: number, problems: string[]): DatabaseConfig {
  if (!url) return { type: 'sqlite', path: join(dataDir, 'portal.sqlite') };
  if (url.startsWith('sqlite:'))
    return { type: 'sqlite', path: url === 'sqlite::memory:' ? ':memory:' : resolve(url.slice('sqlite:'.length)) };
  if (/^(mysql|mariadb):\/\/[^/]+\/\w+/.test(url))
    return { type: 'mysql', url: url.replace(/^mariadb:/, 'mysql:'), poolSize, flavor: url.startsWith('mariadb:') ? 'mariadb' : 'mysql' };
  problems.push('DATABASE_URL must be mysql://user:pass@host:port/database (or be absent for the embedded SQLite database)');
  return { type: 'sqlite', path: join(dataDir, 'portal.sqlite') };
}

function resolveJwtSecret(given: string | undefined, env: string, dataDir: string, problems: string[]): string {
  if (given) {
    if (given.length < MIN_SECRET_LENGTH || new Set(given).size < 10) {
      if (env === 'production') {
        problems.push(`JWT_SECRET is too weak: use at least ${MIN_SECRET_LENGTH} random characters (e.g. \`openssl rand -base64 48\`)`);
      }
    }
    return given;
  }
  if (env === 'production') {
    problems.push('JWT_SECRET is required when NODE_ENV=production (e.g. `openssl rand -base64 48`)');
    return '';
  }
  // Development: a generated secret stored in DATA_DIR, so sessions survive restarts.
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(48).toString('base64url');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

function parseLogs(
  env: NodeJS.ProcessEnv,
  int: (name: string, fallback: number, min: number, max: number) => number,
  problems: string[],
): LogsConfig {
  const mode = (env.ACCESS_LOG || 'all').trim().toLowerCase();
  if (!['all', 'errors', 'off'].includes(mode)) problems.push(`ACCESS_LOG must be all, errors or off (got "${env.ACCESS_LOG}")`);
  const output = (env.ACCESS_LOG_OUTPUT || 'db').trim().toLowerCase() as AccessLogOutput;
  if (!ACCESS_LOG_OUTPUTS.includes(output)) problems.push(`ACCESS_LOG_OUTPUT must be db, stdout or both (got "${env.ACCESS_LOG_OUTPUT}")`);
  const sample = env.ACCESS_LOG_SAMPLE === undefined || env.ACCESS_LOG_SAMPLE === '' ? 1 : Number(env.ACCESS_LOG_SAMPLE);
  if (!Number.isFinite(sample) || sample < 0 || sample > 1)
    problems.push(`ACCESS_LOG_SAMPLE must be a number from 0 to 1 (got "${env.ACCESS_LOG_SAMPLE}")`);
  const days = int('LOG_RETENTION_DAYS', 90, 1, 36_500);
  const retentionDays = Object.fromEntries(
    LOG_TYPES.map((type) => [type, int(`LOG_RETENTION_DAYS_${type.toUpperCase()}`, days, 1, 36_500)]),
  ) as Record<LogType, number>;
  return {
    access: {
      mode: (['all', 'errors', 'off'].includes(mode) ? mode : 'all') as LogsConfig['access']['mode'],
      sampleRatio: Number.isFinite(sample) ? Math.min(1, Math.max(0, sample)) : 1,
      output: ACCESS_LOG_OUTPUTS.includes(output) ? output : 'db',
    },
    retentionDays,
  };
}
