import { likePattern, sortColumn } from './pages';

describe('likePattern', () => {
  it('wraps the term and escapes LIKE wildcards and the escape character', () => {
    expect(likePattern('abc')).toBe('%abc%');
    expect(likePattern('50%_off!')).toBe('%50!%!_off!!%');
  });
});

describe('sortColumn', () => {
  const columns = { created_at: 'x.created_at', name: ['x.first', 'x.last'] };

  it('maps a sort key to its column(s), and a missing or unknown key to the default', () => {
    expect(sortColumn(columns, 'name', 'created_at')).toEqual(['x.first', 'x.last']);
    expect(sortColumn(columns, undefined, 'created_at')).toBe('x.created_at');
    expect(sortColumn(columns, 'toString', 'created_at')).toBe('x.created_at');
  });
});
