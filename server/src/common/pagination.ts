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
