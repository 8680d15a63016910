/**
 * Canonical JSON: object keys sorted, no whitespace, undefined members left out. Signer and verifier
 * serialize the same value to the same bytes, so a signature can be checked without trusting the layout.
 * For the values the portal signs (ASCII keys, strings, integers, booleans, null) this is RFC 8785 (JCS),
 * so verifiers in other languages can use a JCS library; the public-key endpoint documents the exact form.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonicalJson: numbers must be finite');
    return JSON.stringify(value);
  }
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (typeof value === 'object') {
    const entries = Object.keys(value as object)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  throw new TypeError(`canonicalJson: cannot serialize ${typeof value}`);
}
