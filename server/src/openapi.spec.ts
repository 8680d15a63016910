import { sortKeys } from './openapi';

describe('sortKeys', () => {
  it('sorts object keys at every depth and keeps array order', () => {
    const sorted = sortKeys({ b: 1, a: { d: [{ z: 1, y: 2 }, 3], c: null } });
    expect(JSON.stringify(sorted)).toBe('{"a":{"c":null,"d":[{"y":2,"z":1},3]},"b":1}');
  });
});
