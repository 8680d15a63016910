import { createHmac } from 'node:crypto';
import { rawRequest } from './support/raw-request';
import { concrete, registeredRoutes, RegisteredRoute, spellingVariants } from './support/routes';
import { bearer, startTestApp, TestApp } from './support/test-app';

/** The only routes an anonymous visitor may reach. Adding to this list is a security decision. */
const PUBLIC_ROUTES = new Set([
  'GET /api/health',
  'POST /api/register',
  'POST /api/verify-email',
  'POST /api/verify-email/resend',
  'POST /api/login',
  'POST /api/admin/login',
  // The second step of an admin sign-in (and, under ADMIN_REQUIRE_MFA, setting up the authenticator): the password
  // step's short-lived mfa_token is the credential, and no session exists before it.
  'POST /api/admin/login/mfa',
  'POST /api/admin/login/mfa/setup',
  'POST /api/admin/login/mfa/enable',
  // A forgotten password: the request answers alike for every address; the reset link's token is the credential.
  'POST /api/password/forgot',
  'POST /api/password/reset',
  // A new e-mail address is confirmed from the link mailed to it, perhaps on another device: the link's token is the credential.
  'POST /api/profile/email/confirm',
  // The dashboard's Get License card reads pricing and test-license settings before sign-in state is known; no secrets in it.
  'GET /api/settings',
  // The activation API is called by streaming servers, which hold a license key, not a session.
  'POST /api/license-server/activate',
  'POST /api/license-server/validate',
  'POST /api/license-server/deactivate',
  // Servers verify license files, signed answers and release manifests offline with these keys; public by nature.
  'GET /api/license-server/public-key',
  'GET /api/license-server/public-keys',
  // A published release's signed manifest holds no secret: streaming servers and scripts check downloads with it.
  'GET /api/releases/:version/manifest',
  'GET /api/releases/:version/manifest.json',
  'GET /api/releases/:version/manifest.sig',
  // The install command on the dashboard downloads the test script with curl, without a token.
  'GET /api/license-server/test-script.tar.gz',
  // Install commands fetch files with curl or a package manager: a short-lived HMAC-signed link is the credential.
  'GET /api/download/:id/signed',
]);
/** The admin sign-in and its second step: under /api/admin, yet for callers who have no session yet. */
const SIGN_IN_STEPS = /^\/api\/admin\/login(\/mfa(\/setup|\/enable)?)?$/;
/** Swagger UI and the OpenAPI document are published on purpose. */
const isDocs = (route: RegisteredRoute) => route.method === 'GET' && /^\/api\/docs([-/]|$)/.test(route.path);

const key = (route: RegisteredRoute) => `${route.method} ${route.path}`;
const isPublic = (route: RegisteredRoute) => PUBLIC_ROUTES.has(key(route)) || isDocs(route);

function call(t: TestApp, route: RegisteredRoute) {
  const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head';
  return t.api()[method](concrete(route.path));
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
function signedToken(payload: object, secret: string, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const unsigned = `${base64url(header)}.${base64url(payload)}`;
  return `${unsigned}.${createHmac('sha256', secret).update(unsigned).digest('base64url')}`;
}

describe(`access control over every registered route (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let routes: RegisteredRoute[];
  let protectedRoutes: RegisteredRoute[];
  let clientToken: string;

  beforeAll(async () => {
    t = await startTestApp();
    routes = registeredRoutes(t.app).filter((route) => route.path.startsWith('/api'));
    protectedRoutes = routes.filter((route) => !isPublic(route));
    clientToken = (await t.signUpClient()).token;
  });
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('finds the routes from the router, including the admin ones', () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(protectedRoutes.map(key)).toEqual(
      expect.arrayContaining(['GET /api/admin/users', 'DELETE /api/admin/users/:id', 'GET /api/me', 'POST /api/logout']),
    );
  });

  it('serves every listed public route without a token', async () => {
    const reachable = routes.filter((route) => PUBLIC_ROUTES.has(key(route)));
    expect(reachable.map(key).sort()).toEqual([...PUBLIC_ROUTES].sort());
    for (const route of reachable) expect((await call(t, route)).status).not.toBe(401);
  });

  it('answers 401 to an anonymous caller on every protected route', async () => {
    const failures: string[] = [];
    for (const route of protectedRoutes) {
      const response = await call(t, route);
      if (response.status !== 401) failures.push(`${key(route)} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('marks every /api/admin/* route except the sign-in steps as admin-only in openapi.yaml', () => {
    const document = t.openApiDocument();
    const unmarked = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, Record<string, unknown>>)
        .filter(([, operation]) => path.startsWith('/api/admin') && !SIGN_IN_STEPS.test(path) && operation['x-required-role'] !== 'admin')
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    expect(unmarked).toEqual([]);
  });

  it('answers 401 with LICENSE_KEY_REQUIRED on every route a streaming server calls with its license key, to a session too', async () => {
    const document = t.openApiDocument();
    const licensed = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations as Record<string, { security?: Array<Record<string, string[]>> }>)
        .filter(([, operation]) => operation.security?.some((requirement) => 'license-key' in requirement))
        .map(([method]) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(licensed.sort()).toEqual(['GET /api/releases/latest/:os/:arch', 'GET /api/releases/upgrade']);
    const admin = await t.adminToken();
    for (const route of routes.filter((candidate) => licensed.includes(key(candidate)))) {
      for (const token of [null, clientToken, admin]) {
        const request = call(t, route);
        const response = await (token ? request.set(bearer(token)) : request);
        expect([key(route), response.status, response.body.code]).toEqual([key(route), 401, 'LICENSE_KEY_REQUIRED']);
      }
    }
  });

  it('answers 403 to a signed-in client on every /api/admin/* route', async () => {
    const adminRoutes = protectedRoutes.filter((route) => route.path.startsWith('/api/admin'));
    expect(adminRoutes.length).toBeGreaterThan(5);
    const failures: string[] = [];
    for (const route of adminRoutes) {
      const response = await call(t, route).set(bearer(clientToken));
      if (response.status !== 403) failures.push(`${key(route)} → ${response.status}`);
    }
    expect(failures).toEqual([]);
  });

  it('finds no admin route under another spelling of its path, for anonymous and client callers alike', async () => {
    const adminRoutes = protectedRoutes.filter((route) => route.path.startsWith('/api/admin/') || route.path === '/api/admin');
    const failures: string[] = [];
    let tried = 0;
    for (const route of adminRoutes) {
      for (const path of spellingVariants(concrete(route.path))) {
        for (const [caller, token] of [
          ['anonymous', null],
          ['client', clientToken],
        ] as const) {
          tried += 1;
          const { status } = await rawRequest(t, route.method, path, token);
          // A variant of a later segment may land on a `:id` route (`/api/admin/versions/SYNC`), which refuses it;
          // a path that does not begin with `/api/admin/` exactly is no admin route at all.
          const allowed = path.startsWith('/api/admin/') ? [401, 403, 404] : [404];
          if (!allowed.includes(status)) failures.push(`${caller} ${route.method} ${path} → ${status}`);
        }
      }
    }
    expect(tried).toBeGreaterThan(adminRoutes.length * 20);
    expect(failures).toEqual([]);
  });

  it('does not let a client make itself admin through an upper-case path', async () => {
    const client = await t.signUpClient();
    const escalate = await rawRequest(t, 'PUT', `/api/ADMIN/users/${client.id}`, client.token, { role: 'admin', user_type: 'admin' });
    expect(escalate.status).toBe(404);
    const admin = await t.adminToken();
    const stored = await t.api().get(`/api/admin/users/${client.id}`).set(bearer(admin)).expect(200);
    expect(stored.body.data.role).toBe('client');
    const login = await t.api().post('/api/admin/login').send({ email: client.email, password: client.password });
    expect(login.status).toBeGreaterThanOrEqual(400);
    expect(login.body.data).toBeUndefined();
  });

  it('lets the client through to its own routes', async () => {
    await t.api().get('/api/me').set(bearer(clientToken)).expect(200);
  });

  describe('refuses a token that is not exactly what the server issued', () => {
    const cases: Array<[string, (t: TestApp, valid: string) => string]> = [
      ['with one changed signature character', (_t, valid) => valid.slice(0, -2) + (valid.at(-2) === 'A' ? 'B' : 'A') + valid.at(-1)],
      [
        'with a changed payload and the old signature',
        (_t, valid) => {
          const [header, payload, signature] = valid.split('.');
          const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
          return [header, base64url({ ...claims, sub: claims.sub + 1 }), signature].join('.');
        },
      ],
      [
        'signed with another secret',
        (_t, valid) => {
          const claims = JSON.parse(Buffer.from(valid.split('.')[1], 'base64url').toString());
          return signedToken(claims, 'not-the-server-secret-not-the-server-secret');
        },
      ],
      [
        'using alg none',
        (_t, valid) => {
          const claims = JSON.parse(Buffer.from(valid.split('.')[1], 'base64url').toString());
          return `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`;
        },
      ],
      [
        'using HS512 with the right secret (algorithm is pinned)',
        (t, valid) => {
          const claims = JSON.parse(Buffer.from(valid.split('.')[1], 'base64url').toString());
          const unsigned = `${base64url({ alg: 'HS512', typ: 'JWT' })}.${base64url(claims)}`;
          return `${unsigned}.${createHmac('sha512', t.config.jwt.secret).update(unsigned).digest('base64url')}`;
        },
      ],
      [
        'that has expired, though correctly signed',
        (t, valid) => {
          const claims = JSON.parse(Buffer.from(valid.split('.')[1], 'base64url').toString());
          return signedToken({ ...claims, iat: claims.iat - 7200, exp: Math.floor(Date.now() / 1000) - 60 }, t.config.jwt.secret);
        },
      ],
      [
        'for a session that never existed, though correctly signed',
        (t, valid) => {
          const claims = JSON.parse(Buffer.from(valid.split('.')[1], 'base64url').toString());
          return signedToken({ ...claims, sid: '00000000-0000-0000-0000-000000000000' }, t.config.jwt.secret);
        },
      ],
      ['that is not a JWT at all', () => 'garbage'],
    ];

    it.each(cases)('%s', async (_name, forge) => {
      const admin = await t.adminToken();
      await t.api().get('/api/admin/users').set(bearer(admin)).expect(200);
      const forged = forge(t, admin);
      expect(forged).not.toBe(admin);
      await t.api().get('/api/admin/users').set(bearer(forged)).expect(401);
      await t.api().get('/api/me').set(bearer(forged)).expect(401);
    });

    it('refuses a client token rewritten to claim the admin’s user id', async () => {
      const claims = JSON.parse(Buffer.from(clientToken.split('.')[1], 'base64url').toString());
      const forged = signedToken({ ...claims, sub: 1 }, t.config.jwt.secret);
      await t.api().get('/api/admin/users').set(bearer(forged)).expect(401);
    });
  });
});
