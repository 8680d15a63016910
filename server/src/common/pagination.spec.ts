import { pageMeta } from './pagination';

describe('pageMeta', () => {
  it('counts pages, with at least one', () => {
    expect(pageMeta(0, 1, 10)).toEqual({ total: 0, page: 1, limit: 10, pages: 1 });
    expect(pageMeta(26, 3, 5)).toEqual({ total: 26, page: 3, limit: 5, pages: 6 });
  });
});
