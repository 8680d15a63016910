import { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app';
import { buildOpenApiDocument } from '../../src/openapi';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppConfig, loadConfig } from '../../src/config/app-config';
import { createTestDatabase, TestDatabase } from './databases';

export const ADMIN = { email: 'admin@portal.test', password: 'admin-password-1' };

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  dataSource: DataSource;
  /** supertest bound to the running server. */
  api: () => ReturnType<typeof request>;
  /** Status codes of every response served, so a suite can prove it never caused a 5xx. */
  statuses: number[];
  adminToken(): Promise<string>;
  /** The OpenAPI document of the running app (what openapi.yaml holds). */
  openApiDocument(): OpenAPIObject;
  /** Registers, verifies through the mailed link, and signs in a client; returns its token and id. */
  signUpClient(overrides?: Partial<Registration>): Promise<{ token: string; id: number; email: string; password: string }>;
  /** The newest verification token mailed to this address (from DATA_DIR/mail.log). */
  verificationTokenFor(email: string): string;
  close(): Promise<void>;
}

export interface Registration {
  first_name: string;
  last_name: string;
  email: string;
  password: string;
  password_confirmation: string;
}

let clientCounter = 0;

/** A real portal on a fresh database (SQLite or MariaDB, per TEST_DB), listening on a free port. */
export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database: TestDatabase = await createTestDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ...(database.url ? { DATABASE_URL: database.url } : {}),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    JWT_SECRET: randomBytes(48).toString('base64url'),
    CLIENT_DIST: '',
    LOG_LEVEL: 'error',
    THROTTLE_REGISTRATIONS_PER_IP: '100000',
    THROTTLE_LOGIN_FAILURES_PER_IP: '100000',
    THROTTLE_LOGIN_FAILURES_PER_ACCOUNT: '10000',
    ACTIVATION_CALLS_PER_IP_PER_MINUTE: '1000000',
    ACTIVATION_CALLS_PER_KEY_PER_MINUTE: '1000000',
    ACTIVATION_UNKNOWN_KEYS_PER_IP: '1000000',
    ...env,
  });
  const { app } = await createApp(config, { docs: true });
  const statuses: number[] = [];
  const server = app.getHttpServer();
  server.on('request', (_request: IncomingMessage, response: ServerResponse) =>
    response.on('finish', () => statuses.push(response.statusCode)),
  );
  await app.listen(0, '127.0.0.1');
  const api = () => request(server);

  let adminToken: string | null = null;
  const testApp: TestApp = {
    app,
    config,
    dataSource: app.get(DataSource),
    api,
    statuses,
    async adminToken() {
      if (adminToken) return adminToken;
      const response = await api().post('/api/admin/login').send(ADMIN).expect(200);
      adminToken = response.body.data.token as string;
      return adminToken;
    },
    openApiDocument: () => buildOpenApiDocument(app),
    verificationTokenFor(email: string) {
      const log = readFileSync(join(dataDir, 'mail.log'), 'utf8');
      const mails = log.split('----\n').filter((mail) => mail.includes(`To: ${email}\n`));
      const match = mails.at(-1)?.match(/verify-email\?token=([\w-]+)/);
      if (!match) throw new Error(`No verification mail for ${email}`);
      return decodeURIComponent(match[1]);
    },
    async signUpClient(overrides = {}) {
      clientCounter += 1;
      const password = overrides.password ?? 'client-password-1';
      const registration: Registration = {
        first_name: 'Casey',
        last_name: `Client${clientCounter}`,
        email: `client${clientCounter}-${randomBytes(3).toString('hex')}@portal.test`,
        password,
        password_confirmation: password,
        ...overrides,
      };
      const registered = await api().post('/api/register').send(registration).expect(201);
      await api()
        .post('/api/verify-email')
        .send({ token: testApp.verificationTokenFor(registration.email) })
        .expect(200);
      const login = await api().post('/api/login').send({ email: registration.email, password }).expect(200);
      return { token: login.body.token, id: registered.body.data.id, email: registration.email, password };
    },
    async close() {
      await app.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
