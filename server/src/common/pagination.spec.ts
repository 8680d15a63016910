import { pageMeta, sortColumn } from './pagination';

describe('pageMeta', () => {
  it('counts pages, with at least one', () => {
    expect(pageMeta(0, 1, 10)).toEqual({ total: 0, page: 1, limit: 10, pages: 1 });
    expect(pageMeta(26, 3, 5)).toEqual({ total: 26, page: 3, limit: 5, pages: 6 });
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
