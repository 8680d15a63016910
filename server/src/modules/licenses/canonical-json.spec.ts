import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('writes the bytes RFC 8785 (JCS) gives: sorted members at every depth, no whitespace, minimal escapes, raw UTF-8', () => {
    const value = { v: 1, b: { z: null, a: [true, false] }, a: 'Zoë "quoted" \\ \n\u0001', n: -42, skipped: undefined };
    expect(canonicalJson(value)).toBe('{"a":"Zoë \\"quoted\\" \\\\ \\n\\u0001","b":{"a":[true,false],"z":null},"n":-42,"v":1}');
  });

  it('sorts keys by UTF-16 code units, as JCS does (capitals before small letters)', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3, _: 4 })).toBe('{"B":2,"_":4,"a":3,"b":1}');
  });

  it('refuses numbers JSON cannot carry', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow('numbers must be finite');
  });
});
