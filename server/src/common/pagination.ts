import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PageMetaDto, SortOrder } from './list-query.dto';

export function pageMeta(total: number, page: number, limit: number): PageMetaDto {
  return { total, page, limit, pages: Math.max(1, Math.ceil(total / limit)) };
}

/** Escapes LIKE wildcards so a search for `50%` finds "50%", not everything ('!' escapes alike on SQLite and MySQL). */
export function likePattern(search: string): string {
  return `%${search.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** Adds `(a LIKE :q OR b LIKE :q ...)` for a trimmed, non-empty search. */
export function whereSearch<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, columns: string[], search?: string): SelectQueryBuilder<T> {
  const term = search?.trim();
  if (!term) return qb;
  return qb.andWhere(
    new Brackets((where) => {
      for (const column of columns) where.orWhere(`${column} LIKE :search ESCAPE '!'`, { search: likePattern(term) });
    }),
  );
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
}

/** Sorts a query, reads one page of it and counts every matching row (TypeORM's getManyAndCount). */
export async function readPage<T extends ObjectLiteral>(qb: SelectQueryBuilder<T>, request: PageRequest, sort: PageSort): Promise<Page<T>> {
  const page = request.page ?? 1;
  const limit = request.limit ?? sort.defaultLimit ?? 25;
  const direction = (request.order ?? 'desc').toUpperCase() as 'ASC' | 'DESC';
  for (const column of typeof sort.by === 'string' ? [sort.by] : sort.by) qb.addOrderBy(column, direction);
  qb.addOrderBy(sort.id, direction);
  const [rows, total] = await qb
    .skip((page - 1) * limit)
    .take(limit)
    .getManyAndCount();
  return { rows, total, page, limit };
}

/** The column of a requested sort key, or of the default key when none (or an unknown one) is asked for. */
export function sortColumn<K extends string, C>(columns: Record<K, C>, key: string | undefined, fallback: K): C {
  return Object.prototype.hasOwnProperty.call(columns, key ?? '') ? columns[key as K] : columns[fallback];
}
