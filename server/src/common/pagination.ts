import { PageMetaDto, SortOrder } from './list-query.dto';

export function pageMeta(total: number, page: number, limit: number): PageMetaDto {
  return { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

/** One page of a list: its rows, the rows matching in all, and where the page is. */
export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  limit: number;
}

export interface PageRequest {
  page?: number;
  limit?: number;
  order?: SortOrder;
}

export interface PageSort {
  /** The column(s) to sort by, in the requested direction (descending unless asked). */
  by: string | readonly string[];
  /** The id column, sorted last in the same direction, so rows with equal sort values keep one order across pages. */
  id: string;
  /** Rows per page unless the request says (25 unless a list says otherwise). */
  defaultLimit?: number;
  /** The sort column is unique: no id after it (MariaDB would sort every row for `unique_column, id`). */
  unique?: boolean;
  /**
   * Columns whose value never changes once a row is written (creation times): sorted by one of them, a deep page
   * starts from a row an earlier read of the list found (ListTotals' page marks) instead of counting off every row
   * before it.
   */
  fixed?: readonly string[];
}

/** The column of a requested sort key, or of the default key when none (or an unknown one) is asked for. */
export function sortColumn<K extends string, C>(columns: Record<K, C>, key: string | undefined, fallback: K): C {
  return Object.prototype.hasOwnProperty.call(columns, key ?? '') ? columns[key as K] : columns[fallback];
}
