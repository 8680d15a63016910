import { describe, expect, it } from 'vitest';
import { nextSort, pageRange } from './pagination';

describe('pageRange', () => {
  it.each([
    [1, 10, 15, { from: 1, to: 10 }],
    [2, 10, 15, { from: 11, to: 15 }],
    [3, 5, 15, { from: 11, to: 15 }],
    [1, 25, 0, { from: 0, to: 0 }],
    [1, 5, 5, { from: 1, to: 5 }],
  ])('page %i of size %i over %i rows', (page, limit, total, expected) => {
    expect(pageRange(page, limit, total)).toEqual(expected);
  });
});

describe('nextSort', () => {
  it('starts another column ascending and flips the active one', () => {
    expect(nextSort({ sort: 'created_at', order: 'desc' }, 'license_key')).toEqual({ sort: 'license_key', order: 'asc' });
    expect(nextSort({ sort: 'license_key', order: 'asc' }, 'license_key')).toEqual({ sort: 'license_key', order: 'desc' });
    expect(nextSort({ sort: 'license_key', order: 'desc' }, 'license_key')).toEqual({ sort: 'license_key', order: 'asc' });
    expect(nextSort({ sort: 'created_at', order: 'asc' }, 'file_size')).toEqual({ sort: 'file_size', order: 'asc' });
  });
});
