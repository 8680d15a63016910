import { likePattern } from './pages';

describe('likePattern', () => {
  it('wraps the term and escapes LIKE wildcards and the escape character', () => {
    expect(likePattern('abc')).toBe('%abc%');
    expect(likePattern('50%_off!')).toBe('%50!%!_off!!%');
  });
});
