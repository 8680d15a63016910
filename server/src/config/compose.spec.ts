import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from './app-config';

/**
 * docker/compose.yaml (the scaled-out topology) and docker/nginx.conf, checked where they can go wrong without a
 * Docker engine: what the instances are given, the health checks and start order, that the portal reads every
 * variable the file sets, and that nginx accepts its configuration.
 */
const DOCKER = resolve(__dirname, '../../../docker');
const NGINX = '/usr/sbin/nginx';

interface Service {
  build?: { context: string; dockerfile: string };
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  restart?: string;
  ports?: string[];
  expose?: string[];
  entrypoint?: string[];
}

const compose = parse(readFileSync(join(DOCKER, 'compose.yaml'), 'utf8'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const nginxConf = readFileSync(join(DOCKER, 'nginx.conf'), 'utf8');
const portalNames = Object.keys(services).filter((name) => services[name].build?.dockerfile === 'docker/Dockerfile');
const portals = portalNames.map((name) => services[name]);
const oneShot = (service: Service) => service.restart === 'no';

/** What an operator would export, as the comment at the top of compose.yaml says. */
const operator: Record<string, string> = {
  JWT_SECRET: 'k3J9x!Qm2Zp8Lr5Tv7Wy0Ab4Cd6Ef1Gh-k3J9x!Qm2Zp8Lr5Tv7',
  LICENSE_SIGNING_KEY: generateKeyPairSync('ed25519')
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString()
    .trim()
    .replace(/\n/g, '\\n'),
  ADMIN_PASSWORD: 'admin-password-1',
  DB_PASSWORD: 'db-password-1',
  MINIO_ROOT_PASSWORD: 'minio-password-1',
  PAYMENT_PROVIDER: 'sandbox',
};

/** Compose's interpolation: ${NAME}, ${NAME:-default}, ${NAME:?error} (which fails when NAME is unset) and $$. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Z0-9_]+)(?:(:-|:\?)([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, rest: string) => {
      if (whole === '$$') return '$';
      const given = vars[name!];
      if (given) return given;
      if (op === ':?') throw new Error(`${name} is required: ${rest}`);
      return op === ':-' ? rest : '';
    },
  );
}

/** The image's own ENV line (NODE_ENV, PORT, DATA_DIR) under the compose file's environment, as the container sees it. */
function containerEnv(service: Service): Record<string, string> {
  const imageEnv = /^ENV (.+)$/m.exec(readFileSync(join(DOCKER, 'Dockerfile'), 'utf8'))![1];
  const env = Object.fromEntries(imageEnv.split(/\s+/).map((pair) => pair.split('=') as [string, string]));
  for (const [name, value] of Object.entries(service.environment ?? {})) env[name] = interpolate(String(value), operator);
  return env;
}

describe('docker/compose.yaml', () => {
  it('runs two portal instances behind the proxy, each on port 3000 and not published', () => {
    expect(portalNames).toHaveLength(2);
    for (const portal of portals) {
      expect(portal.expose).toEqual(['3000']);
      expect(portal.ports).toBeUndefined();
    }
  });

  it('gives both instances the same secrets, database, Redis and bucket, each from the operator and none written in the file', () => {
    const [a, b] = portals.map((portal) => portal.environment!);
    expect(a).toEqual(b);
    for (const name of ['JWT_SECRET', 'LICENSE_SIGNING_KEY', 'ADMIN_PASSWORD']) expect(a[name]).toMatch(new RegExp(`^\\$\\{${name}:\\?`));
    expect(a).toMatchObject({ STORAGE_DRIVER: 's3', TRUST_PROXY: '1', S3_FORCE_PATH_STYLE: 'true' });
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_REGION',
      'AWS_ACCESS_KEY_ID',
      'AWS_SECRET_ACCESS_KEY',
      'PUBLIC_URL',
    ])
      expect(a[name]).toBeTruthy();
  });

  it('points the instances at the services that are there, with their credentials', () => {
    const env = containerEnv(portals[0]);
    const database = new URL(env.DATABASE_URL);
    const mariadb = services[database.hostname].environment!;
    expect(interpolate(mariadb.MARIADB_USER, operator)).toBe(database.username);
    expect(interpolate(mariadb.MARIADB_PASSWORD, operator)).toBe(database.password);
    expect(mariadb.MARIADB_DATABASE).toBe(database.pathname.slice(1));
    expect(services[new URL(env.REDIS_URL).hostname].healthcheck).toBeDefined();
    const minio = services[new URL(env.S3_ENDPOINT).hostname].environment!;
    expect(env.AWS_ACCESS_KEY_ID).toBe(interpolate(minio.MINIO_ROOT_USER, operator));
    expect(env.AWS_SECRET_ACCESS_KEY).toBe(interpolate(minio.MINIO_ROOT_PASSWORD, operator));
    // The one-shot service makes the very bucket the instances use.
    expect(services['minio-bucket'].entrypoint!.join(' ')).toContain(`mc mb --ignore-existing store/${env.S3_BUCKET}`);
    // Links in mails and install commands name the port the proxy is published on.
    const published = services.proxy.ports!.map((mapping) => mapping.split(':')[0]);
    expect(published).toContain(new URL(env.PUBLIC_URL).port);
  });

  it('has a health check on every service that keeps running; one-shot services are waited for until they completed', () => {
    for (const [name, service] of Object.entries(services)) {
      if (oneShot(service)) {
        const dependants = Object.values(services).filter((other) => other.depends_on?.[name]);
        expect(dependants.length).toBeGreaterThan(0);
        for (const other of dependants) expect(other.depends_on![name].condition).toBe('service_completed_successfully');
      } else {
        expect({ name, test: service.healthcheck?.test?.[0] }).toEqual({ name, test: 'CMD' });
      }
    }
  });

  it('starts each service only when what it depends on is healthy (or done): the proxy after both instances', () => {
    expect(Object.keys(services.proxy.depends_on!).sort()).toEqual([...portalNames].sort());
    for (const [name, service] of Object.entries(services))
      for (const [dependency, { condition }] of Object.entries(service.depends_on ?? {})) {
        expect(services[dependency]).toBeDefined();
        expect({ name, dependency, condition }).toEqual({
          name,
          dependency,
          condition: oneShot(services[dependency]) ? 'service_completed_successfully' : 'service_healthy',
        });
      }
  });

  it('sets only variables the portal reads (or the AWS SDK, for credentials), and the portal starts with them', () => {
    const env = containerEnv(portals[0]);
    const read = new Set<string>();
    const watched = new Proxy(env, {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    });
    const config = loadConfig(watched);
    const sdk = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'];
    expect(Object.keys(env).filter((name) => !read.has(name) && !sdk.includes(name))).toEqual([]);
    expect(config.storage.s3).toMatchObject({ bucket: env.S3_BUCKET, endpoint: env.S3_ENDPOINT, forcePathStyle: true });
    expect(config.database).toMatchObject({ type: 'mysql' });
    expect(config.throttle.redisUrl).toBe(env.REDIS_URL);
  });
});

describe('docker/nginx.conf', () => {
  const upstream = /upstream portal \{([^}]*)\}/.exec(nginxConf)![1];
  const directive = (name: string, text = nginxConf) => [...text.matchAll(new RegExp(`^\\s*${name}\\s+([^;]*);`, 'gm'))].map((m) => m[1]);

  it('spreads over exactly the portal services, each with passive health checks', () => {
    const servers = directive('server', upstream);
    expect(servers.map((line) => line.split(/\s+/)[0]).sort()).toEqual(portalNames.map((name) => `${name}:3000`).sort());
    for (const line of servers) expect(line).toMatch(/ max_fails=\d+ fail_timeout=\d+s/);
  });

  it("closes idle upstream connections before the portal does (keepalive_timeout below the portal's keep-alive)", () => {
    const nginxSeconds = Number(/^(\d+)s$/.exec(directive('keepalive_timeout', upstream)[0])![1]);
    const portalSeconds = loadConfig(containerEnv(portals[0])).http.keepAliveSeconds;
    expect(nginxSeconds).toBeLessThan(portalSeconds);
    expect(directive('keepalive', upstream)).toHaveLength(1);
    expect(directive('proxy_set_header')).toContain('Connection ""');
    expect(directive('proxy_http_version')).toEqual(['1.1']);
  });

  it('streams uploads of any size to an instance, and retries only what nginx may retry', () => {
    expect(directive('client_max_body_size')).toEqual(['0']);
    expect(directive('proxy_request_buffering')).toEqual(['off']);
    const nextUpstream = directive('proxy_next_upstream');
    expect(nextUpstream).toEqual(['error timeout']);
  });

  it('is accepted by `nginx -t` (the instances stood in for by local addresses)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'portal-nginx-t-'));
    try {
      // As in the image's nginx.conf, the site goes inside http {}; names that only resolve in compose become loopback addresses.
      const site = nginxConf.replace(/server portal-(\d):3000/g, (_, n: string) => `server 127.0.0.${Number(n) + 1}:3000`);
      const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((name) => `${name}_temp_path ${dir}/${name};`).join(' ');
      writeFileSync(
        join(dir, 'nginx.conf'),
        `pid ${dir}/nginx.pid; error_log ${dir}/error.log; events {} http { access_log off; ${temp} ${site} }`,
      );
      const result = spawnSync(NGINX, ['-t', '-c', join(dir, 'nginx.conf'), '-p', dir], { encoding: 'utf8' });
      expect({ status: result.status, output: result.stderr }).toEqual({
        status: 0,
        output: expect.stringContaining('test is successful'),
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
