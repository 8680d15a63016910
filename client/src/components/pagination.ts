/** 'Showing a to b of n': the 1-based range of rows on a page (0 to 0 when there are none). */
export function pageRange(page: number, limit: number, total: number): { from: number; to: number } {
  if (total <= 0) return { from: 0, to: 0 };
  const from = (page - 1) * limit + 1;
  return { from: Math.min(from, total), to: Math.min(page * limit, total) };
}

export type SortOrder = 'asc' | 'desc';
export interface Sorting<S extends string> {
  sort: S;
  order: SortOrder;
}

/** A click on a column header: the active column flips its direction; another column starts ascending. */
export function nextSort<S extends string>(current: Sorting<S>, sort: S): Sorting<S> {
  return { sort, order: current.sort === sort && current.order === 'asc' ? 'desc' : 'asc' };
}
