import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { createVersion, uploadFile } from './support/distribution';
import { callLicenseServer, issueLicense, serverUid } from './support/licensing';
import { Components, hostileKey, hostileValue, mutatedObject, resolveSchema, Schema, validValue } from './support/openapi-arbitraries';
import { ADMIN, bearer, startTestApp, TestApp } from './support/test-app';

/**
 * Spec-driven fuzzing: every operation in openapi.yaml gets valid samples and hostile mutations (dropped and
 * wrong-typed fields, huge and broken-unicode strings, extreme numbers, foreign fields, malformed JSON, a wrong
 * content type, odd ids) as an anonymous caller, a client, an admin and (where it applies) the sync token or a
 * streaming server's license key.
 * It fails on any 5xx, and on any 2xx to a caller the operation's security does not admit.
 * FUZZ_SEED reproduces a run; FUZZ_RUNS sets the samples per operation and caller.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const SYNC_TOKEN = 'sync-token-for-the-fuzz-test-0123456789abcdef';

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: Schema;
}
interface Operation {
  name: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  parameters: Parameter[];
  body?: { contentType: string; schema: Schema };
  schemes: string[];
  adminOnly: boolean;
}
type Caller = 'anonymous' | 'client' | 'admin' | 'sync' | 'license';

/** The parts of an OpenAPI operation the fuzzer reads. */
interface DocumentOperation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema: Schema }> };
  security?: Array<Record<string, string[]>>;
  'x-required-role'?: string;
}

const document = parse(readFileSync(resolve(__dirname, '../../openapi.yaml'), 'utf8'));
const components: Components = document.components.schemas;
const operations: Operation[] = Object.entries(document.paths as Record<string, Record<string, DocumentOperation>>).flatMap(
  ([path, item]) =>
    Object.entries(item).map(([method, operation]) => {
      const [contentType, media] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
      return {
        name: `${method.toUpperCase()} ${path}`,
        method: method as Operation['method'],
        path,
        parameters: operation.parameters ?? [],
        body: contentType ? { contentType, schema: media.schema } : undefined,
        schemes: (operation.security ?? []).flatMap((requirement) => Object.keys(requirement)),
        adminOnly: operation['x-required-role'] === 'admin',
      };
    }),
);

/** Which callers a 2xx may answer; anything else must be refused. */
function admits(operation: Operation, caller: Caller): boolean {
  if (operation.schemes.length === 0) return true;
  if (caller === 'anonymous') return false;
  if (caller === 'sync') return operation.schemes.includes('sync-token');
  if (caller === 'license') return operation.schemes.includes('license-key');
  if (!operation.schemes.includes('bearer')) return false;
  return caller === 'admin' || !operation.adminOnly;
}

type Payload =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; text: string }
  | { kind: 'multipart'; fields: [string, string][]; file?: { name: string; bytes: Buffer } };
interface FuzzRequest {
  path: string;
  query: string;
  payload: Payload;
}

/** Percent-encodes like encodeURIComponent, but lets a lone surrogate through as the bytes a careless client sends. */
const encode = (value: string) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '')) + '%ED%A0%80';
  }
};
const asText = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));

const oddIds = fc.constantFrom(
  ' 1',
  '%201',
  '0',
  '-1',
  '01',
  '+1',
  '1.5',
  '1e3',
  '0x10',
  '9'.repeat(30),
  '2147483648',
  'NaN',
  'null',
  'abc',
  '%00',
  '%ED%A0%80',
  '..',
  '%2e%2e',
  '1;x=1',
);
const malformedJson = fc.constantFrom(
  '{',
  '{"a":',
  '{"a":1}}',
  'nul',
  '[1,]',
  '{"a":1,"a":2}',
  '\u0000',
  '"',
  '{"a":"\\ud800"}',
  '{"__proto__":{"x":1}}',
  '1e999',
  '',
);
const wrongContentTypes = fc.constantFrom(
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=latin1',
);

/** Path parameters other than ids: a value that names something (a license key unless `known` has one for the name), or hostile text. */
function requestFor(operation: Operation, knownIds: number[], knownKey: string, known: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const queryParameters = operation.parameters.filter((parameter) => parameter.in === 'query');

  const segment = (parameter: Parameter) =>
    parameter.name === 'id'
      ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...knownIds).map(String) }, { weight: 1, arbitrary: oddIds })
      : fc.oneof(
          fc.constant(encode(known[parameter.name] ?? knownKey)),
          hostileValue.map((value) => encode(asText(value)).slice(0, 2000)),
        );
  const path = fc
    .tuple(...pathParameters.map(segment))
    .map((values) => pathParameters.reduce((built, parameter, i) => built.replace(`{${parameter.name}}`, values[i]), operation.path));

  const queryValue = (parameter: Parameter) =>
    fc.oneof({ weight: 3, arbitrary: validValue(parameter.schema, components) }, { weight: 1, arbitrary: hostileValue });
  const query = fc
    .tuple(
      fc.tuple(...queryParameters.map((parameter) => fc.option(queryValue(parameter), { freq: 2 }))),
      fc.option(fc.tuple(fc.oneof(hostileKey, fc.constantFrom('page[$gt]', 'sort[]', 'limit')), hostileValue), { freq: 3 }),
    )
    .map(([values, extra]) => {
      const pairs = queryParameters
        .map((parameter, i) => (values[i] === null ? null : `${parameter.name}=${encode(asText(values[i])).slice(0, 4000)}`))
        .filter((pair): pair is string => pair !== null);
      if (extra) pairs.push(`${encode(extra[0])}=${encode(asText(extra[1])).slice(0, 4000)}`);
      return pairs.join('&');
    });

  return fc.record({ path, query, payload: payloadFor(operation) });
}

function payloadFor(operation: Operation): fc.Arbitrary<Payload> {
  const raw = fc.oneof(
    malformedJson.map((text): Payload => ({ kind: 'raw', contentType: 'application/json', text })),
    fc
      .tuple(wrongContentTypes, fc.oneof(malformedJson, fc.constant('a=1&b[c]=2')))
      .map(([contentType, text]): Payload => ({ kind: 'raw', contentType, text })),
  );
  const body = operation.body;
  if (!body) return fc.oneof({ weight: 6, arbitrary: fc.constant<Payload>({ kind: 'none' }) }, { weight: 1, arbitrary: raw });
  if (body.contentType === 'multipart/form-data') return multipartFor(body.schema);
  const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((value): Payload => ({ kind: 'json', value }));
  return fc.oneof(
    { weight: 3, arbitrary: json(validValue(body.schema, components)) },
    { weight: 5, arbitrary: json(mutatedObject(body.schema, components)) },
    { weight: 1, arbitrary: json(hostileValue) },
    { weight: 1, arbitrary: raw },
  );
}

function multipartFor(schema: Schema): fc.Arbitrary<Payload> {
  const properties = Object.entries(resolveSchema(schema, components).properties ?? {});
  const fieldValue = (property: Schema) =>
    fc
      .oneof({ weight: 3, arbitrary: validValue(property, components) }, { weight: 1, arbitrary: hostileValue })
      .map((value) => asText(value).slice(0, 5000));
  const fields = fc.tuple(
    ...properties
      .filter(([, property]) => property.format !== 'binary')
      .map(([name, property]) => fc.option(fieldValue(property), { freq: 4 }).map((value) => [name, value] as const)),
  );
  const fileName = fc.oneof(
    fc.constantFrom(
      'streamhub.deb',
      'streamhub.tar.gz',
      'ünï.zip',
      '../../evil.exe',
      'a'.repeat(400) + '.zip',
      '.zip',
      'x.txt',
      'con.deb',
      '%00.deb',
    ),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const file = fc.option(fc.record({ name: fileName, bytes: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) }), {
    freq: 3,
  });
  return fc.tuple(fields, file).map(([values, chosen]): Payload => ({
    kind: 'multipart',
    fields: values.filter((entry): entry is readonly [string, string] => entry[1] !== null).map(([name, value]) => [name, value]),
    file: chosen ?? undefined,
  }));
}

describe(`fuzzing every operation in openapi.yaml (${process.env.TEST_DB}, seed ${SEED})`, () => {
  let t: TestApp;
  let knownIds: number[];
  let knownKey: string;
  /** A published release's number and the current signing key's id, for the manifest and signing-key routes. */
  const known: Record<string, string> = { version: '9.1.0', os: 'linux', arch: 'x64' };
  const tokens: Record<Caller, string | null> = { anonymous: null, client: null, admin: null, sync: SYNC_TOKEN, license: null };
  /** The server that calls the update API with the client's license key. */
  const server = serverUid();
  let clientLogin: { email: string; password: string };

  beforeAll(async () => {
    t = await startTestApp({ LICENSE_SERVER_SYNC_TOKEN: SYNC_TOKEN });
    tokens.admin = await t.adminToken();
    const client = await t.signUpClient();
    tokens.client = client.token;
    clientLogin = { email: client.email, password: client.password };
    // Things for valid ids to find: other customers, licenses, versions and a file.
    const others = [await t.signUpClient(), await t.signUpClient()];
    const licenses = [await issueLicense(t, { user_email: others[0].email }), await issueLicense(t, { user_email: client.email })];
    const version = await createVersion(t, '9.1.0');
    const file = await uploadFile(t, {
      version_id: version.id,
      os_type: 'linux',
      architecture: 'x64',
      bytes: Buffer.from('fuzz'),
      name: 'fuzz.deb',
    });
    knownKey = licenses[0].license_key;
    tokens.license = licenses[1].license_key;
    expect((await callLicenseServer(t, 'activate', { license_key: licenses[1].license_key, server_uid: server })).body.data.code).toBe(
      'VALID',
    );
    known.kid = (await t.api().get('/api/license-server/public-key').expect(200)).body.data.key_id;
    const me = await t.api().get('/api/me').set(bearer(tokens.admin));
    // The admin's and the fuzzing client's own ids are left out, so a fuzzed update cannot take their sessions away mid-run.
    const protectedIds = new Set([me.body.data?.id ?? me.body.id, client.id]);
    knownIds = [...new Set([1, 2, 3, 4, 5, ...others.map((o) => o.id), ...licenses.map((l) => l.id), version.id, file.id, 987654])].filter(
      (id) => !protectedIds.has(id),
    );
  });
  afterAll(async () => {
    if (process.env.FUZZ_VERBOSE) {
      const counts = t.statuses.reduce<Record<number, number>>((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {});
      console.log(`statuses over ${t.statuses.length} answers: ${JSON.stringify(counts)}`);
    }
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t?.close();
  });

  /** Signs the client and admin in again when a fuzzed call (a logout, say) ended their sessions. */
  async function keepSignedIn(): Promise<void> {
    for (const caller of ['client', 'admin'] as const) {
      const me = await t.api().get('/api/me').set(bearer(tokens[caller]!));
      if (me.status === 200) continue;
      tokens[caller] =
        caller === 'admin'
          ? (await t.api().post('/api/admin/login').send(ADMIN).expect(200)).body.data.token
          : (await t.api().post('/api/login').send(clientLogin).expect(200)).body.token;
    }
  }

  function send(operation: Operation, caller: Caller, request: FuzzRequest) {
    const url = request.path + (request.query ? `?${request.query}` : '');
    let call = t.api()[operation.method](url);
    const token = tokens[caller];
    if (caller === 'license') call = call.set('Authorization', `License ${token}`).set('X-Server-Uid', server);
    else if (token) call = call.set(bearer(token));
    const payload = request.payload;
    switch (payload.kind) {
      case 'json':
        return call.set('Content-Type', 'application/json').send(JSON.stringify(payload.value) ?? 'null');
      case 'raw':
        return call.set('Content-Type', payload.contentType).send(payload.text);
      case 'multipart':
        for (const [name, value] of payload.fields) call = call.field(name, value);
        return payload.file ? call.attach('file', payload.file.bytes, payload.file.name) : call;
      default:
        return call;
    }
  }

  it('reads every operation of the document', () => {
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.filter((operation) => operation.adminOnly).length).toBeGreaterThan(40);
    // Signing keys and release manifests (issue 41).
    expect(operations.map((operation) => operation.name)).toEqual(
      expect.arrayContaining([
        'GET /api/license-server/public-keys',
        'GET /api/admin/signing-keys',
        'POST /api/admin/signing-keys/rotate',
        'DELETE /api/admin/signing-keys/{kid}',
        'GET /api/releases/{version}/manifest',
        'GET /api/releases/{version}/manifest.json',
        'GET /api/releases/{version}/manifest.sig',
        'GET /api/releases/upgrade',
        'GET /api/releases/latest/{os}/{arch}',
      ]),
    );
  });

  /** Days and times that do not exist, in the shapes a date field takes: each must be a 400 naming the field. */
  const IMPOSSIBLE_DATES = ['2026-13-45', '2026-12-32', '2026-00-10', '2026-02-29', '2026-02-30T10:00:00Z', '2026-06-01T24:30:00Z'];
  const isDate = (schema: Schema) => ['date', 'date-time'].includes(resolveSchema(schema, components).format ?? '');

  it('refuses an impossible date in every date parameter and top-level date field with a 400 naming it', async () => {
    const checked: string[] = [];
    for (const operation of operations) {
      const caller: Caller = operation.schemes.includes('sync-token') && !operation.schemes.includes('bearer') ? 'sync' : 'admin';
      const path = operation.path.replace(/\{[^}]+\}/g, String(knownIds[0]));
      const dateQueries = operation.parameters.filter((parameter) => parameter.in === 'query' && isDate(parameter.schema));
      const body = operation.body && resolveSchema(operation.body.schema, components);
      const dateFields = Object.entries(body?.properties ?? {})
        .filter(([, property]) => isDate(property))
        .map(([name]) => name);
      for (const field of [...dateQueries.map((parameter) => parameter.name), ...dateFields]) {
        for (const value of IMPOSSIBLE_DATES) {
          const inQuery = dateQueries.some((parameter) => parameter.name === field);
          const base =
            body && !inQuery ? (fc.sample(validValue(body, components), { seed: SEED, numRuns: 1 })[0] as Record<string, unknown>) : {};
          const payload: Payload = inQuery
            ? { kind: 'none' }
            : operation.body!.contentType === 'multipart/form-data'
              ? {
                  kind: 'multipart',
                  fields: [
                    ...Object.entries(base)
                      .filter(([name]) => name !== field && name !== 'file')
                      .map(([name, v]): [string, string] => [name, asText(v)]),
                    [field, value],
                  ],
                }
              : { kind: 'json', value: { ...base, [field]: value } };
          const response = await send(operation, caller, { path, query: inQuery ? `${field}=${encode(value)}` : '', payload });
          const said = `${operation.name} ${field}=${value} → ${response.status} ${String(response.text).slice(0, 300)}`;
          if (response.status !== 400 || !Object.keys(response.body.errors ?? {}).includes(field)) throw new Error(said);
          await keepSignedIn();
        }
        checked.push(`${operation.name} ${field}`);
      }
    }
    // The dashboard's download statistics, the log filters and exports, license expiries and version release dates.
    expect(checked).toEqual(
      expect.arrayContaining([
        'GET /api/admin/stats/downloads to',
        'GET /api/admin/logs/access from',
        'POST /api/admin/upload release_date',
      ]),
    );
    expect(checked.length).toBeGreaterThan(10);
  });

  const callers: Caller[] = ['anonymous', 'client', 'admin', 'sync', 'license'];
  it.each(callers)(
    'never answers 5xx, nor 2xx where the security does not admit the caller: %s',
    async (caller) => {
      for (const operation of operations) {
        if (caller === 'sync' && !operation.schemes.includes('sync-token')) continue;
        if (caller === 'license' && !operation.schemes.includes('license-key')) continue;
        await fc.assert(
          fc.asyncProperty(requestFor(operation, knownIds, knownKey, known), async (request) => {
            const response = await send(operation, caller, request);
            const said = `${operation.name} as ${caller}: ${request.path}?${request.query.slice(0, 300)} → ${response.status} ${String(response.text ?? '').slice(0, 300)}`;
            if (response.status >= 500) throw new Error(`5xx: ${said}`);
            if (response.status < 300 && !admits(operation, caller)) throw new Error(`not admitted but answered: ${said}`);
            if (operation.method !== 'get' && caller !== 'anonymous' && caller !== 'sync') await keepSignedIn();
          }),
          { seed: SEED, numRuns: RUNS },
        );
      }
      // Every operation, RUNS times: its length follows the API's size and the machine's load, not a target.
    },
    300_000,
  );
});
