import { ApiError } from './api-error';

/** What a parsed JSON body may hold before any validator sees it: far above every real body, far below what hurts. */
export const JSON_LIMITS = { depth: 32, keysPerObject: 200, itemsPerArray: 10_000 } as const;

/**
 * Names no body field may have: Object.prototype's members. class-validator's whitelist looks fields up in a
 * plain object, so it takes `constructor` or `toString` for a declared field and lets it through.
 */
const PROTOTYPE_MEMBERS = new Set(Object.getOwnPropertyNames(Object.prototype));

/**
 * Walks a parsed JSON body once, without recursion, and refuses shapes that would make validation slow or
 * crash it: deep nesting (the validator recurses), wide objects (every unknown key becomes an error line),
 * long arrays, text with a lone UTF-16 surrogate (which `isEmail` and `encodeURIComponent` throw on), and
 * fields named like Object.prototype's members.
 */
export function assertJsonWithinLimits(body: unknown): void {
  const pending: Array<[value: unknown, depth: number]> = [[body, 1]];
  while (pending.length) {
    const [value, depth] = pending.pop()!;
    if (typeof value === 'string') {
      assertWellFormed(value);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth > JSON_LIMITS.depth) throw ApiError.badRequest(`JSON is nested too deeply (at most ${JSON_LIMITS.depth} levels)`);
    if (Array.isArray(value)) {
      if (value.length > JSON_LIMITS.itemsPerArray)
        throw ApiError.badRequest(`Too many items in one JSON array (at most ${JSON_LIMITS.itemsPerArray})`);
      for (const item of value) pending.push([item, depth + 1]);
      continue;
    }
    const keys = Object.keys(value);
    if (keys.length > JSON_LIMITS.keysPerObject)
      throw ApiError.badRequest(`Too many fields in one JSON object (at most ${JSON_LIMITS.keysPerObject})`);
    for (const key of keys) {
      assertWellFormed(key);
      if (PROTOTYPE_MEMBERS.has(key)) {
        const message = `property ${key} should not exist`;
        throw ApiError.badRequest(message, Object.assign(Object.create(null), { [key]: [message] }));
      }
      pending.push([(value as Record<string, unknown>)[key], depth + 1]);
    }
  }
}

function assertWellFormed(text: string): void {
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed())
    throw ApiError.badRequest('Text must be valid Unicode (a lone UTF-16 surrogate was sent)');
}
