import fc from 'fast-check';

/** The parts of an OpenAPI 3 schema object the generators read. */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  maxItems?: number;
  additionalProperties?: boolean | Schema;
}

export type Components = Record<string, Schema>;

/** Follows `$ref`s and flattens `allOf`, so the generators see one plain schema. */
export function resolveSchema(schema: Schema, components: Components): Schema {
  if (schema.$ref) return resolveSchema(components[schema.$ref.replace('#/components/schemas/', '')], components);
  if (!schema.allOf) return schema;
  const parts = schema.allOf.map((part) => resolveSchema(part, components));
  return {
    ...schema,
    allOf: undefined,
    type: parts.find((part) => part.type)?.type ?? schema.type,
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {}), schema.properties),
    required: [...parts.flatMap((part) => part.required ?? []), ...(schema.required ?? [])],
  };
}

const shortText = (min = 0, max = 40) => fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 40)) });

/** Values the schema allows (as far as types, formats, enums and bounds go): what a well-behaved caller sends. */
export function validValue(schema: Schema, components: Components, depth = 0): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(schema, components);
  const alternatives = resolved.oneOf ?? resolved.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((part) => validValue(part, components, depth + 1)));
  if (resolved.enum) return fc.constantFrom(...resolved.enum);
  switch (resolved.type) {
    case 'string':
      if (resolved.format === 'email') return fc.emailAddress();
      if (resolved.format === 'date-time')
        return fc.date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (resolved.format === 'date')
        return fc
          .date({ min: new Date('2020-01-01'), max: new Date('2035-01-01'), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      if (resolved.format === 'binary') return fc.constant('binary');
      return shortText(resolved.minLength ?? 0, resolved.maxLength ?? 40);
    case 'integer':
      return fc.integer({ min: resolved.minimum ?? -1000, max: Math.min(resolved.maximum ?? 1000, 2 ** 31 - 1) });
    case 'number':
      return fc.double({ min: resolved.minimum ?? -1000, max: resolved.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'array':
      if (depth > 4) return fc.constant([]);
      return fc.array(validValue(resolved.items ?? {}, components, depth + 1), { maxLength: Math.min(resolved.maxItems ?? 3, 3) });
    default: {
      if (!resolved.properties || depth > 4) return fc.constant({});
      const properties = Object.fromEntries(
        Object.entries(resolved.properties).map(([name, property]) => [name, validValue(property, components, depth + 1)]),
      );
      return fc.record(properties, { requiredKeys: (resolved.required ?? []).filter((name) => name in properties) });
    }
  }
}

/** Values an attacker or a broken client sends in place of any field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, true, false, 0, -1, -0, 1.5, 1e308, -1e308, 2 ** 31, 2 ** 53 + 2, Number.MAX_VALUE),
  fc.constantFrom('', ' ', '0', 'true', 'null', '1e3', '0x10', '-1', '9'.repeat(40), 'not-a-date'),
  // Days and times that do not exist (JavaScript's Date rolls some over, refuses others with a RangeError).
  fc.constantFrom('2026-02-30', '2026-13-45', '2026-12-32', '2026-00-10', '2026-02-29T10:00:00Z', '2026-06-01T24:30:00Z'),
  fc.constantFrom('\ud800', 'a\udfffb', '\u0000', '\u202e\u200b', 'ü'.repeat(300), '😀'.repeat(200), 'x'.repeat(100_000)),
  fc.constantFrom("' OR 1=1 --", '"; DROP TABLE users; --', '<script>alert(1)</script>', '../../../etc/passwd', '%00', '${7*7}'),
  fc.constantFrom('=HYPERLINK("http://x")', '@SUM(1)', 'admin@portal.test', 'a@b', '@', 'user@exa mple.com'),
  fc.constantFrom([], {}, [null], [[[]]], { $gt: '' }, JSON.parse('{"__proto__":{"admin":true}}'), { constructor: 'x' }, ['a', 1, null]),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.integer(),
  fc.double(),
);

/** Field names that have broken naive code before: prototype members and near-misses of real fields. */
export const hostileKey = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'role',
  'id',
  'is_admin',
  '',
);

/** A valid object bent one way: a required field dropped, a field given a hostile value, or a foreign field added. */
export function mutatedObject(schema: Schema, components: Components): fc.Arbitrary<unknown> {
  const resolved = resolveSchema(schema, components);
  const names = Object.keys(resolved.properties ?? {});
  const base = validValue(resolved, components) as fc.Arbitrary<Record<string, unknown>>;
  const mutations: fc.Arbitrary<unknown>[] = [
    fc.tuple(base, hostileKey, hostileValue).map(([value, key, extra]) => {
      const copy = { ...value };
      Object.defineProperty(copy, key, { value: extra, enumerable: true, writable: true, configurable: true });
      return copy;
    }),
  ];
  if (names.length > 0) {
    mutations.push(
      fc.tuple(base, fc.constantFrom(...names), hostileValue).map(([value, name, bad]) => ({ ...value, [name]: bad })),
      fc.tuple(base, fc.constantFrom(...names)).map(([value, name]) => {
        const copy = { ...value };
        delete copy[name];
        return copy;
      }),
      fc.tuple(base, fc.subarray(names, { minLength: Math.min(2, names.length) }), hostileValue).map(([value, chosen, bad]) => {
        const copy = { ...value };
        for (const name of chosen) copy[name] = bad;
        return copy;
      }),
    );
  }
  return fc.oneof(...mutations);
}
