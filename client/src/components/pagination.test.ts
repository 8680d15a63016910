import { describe, expect, it } from 'vitest';
import { pageRange } from './pagination';

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
