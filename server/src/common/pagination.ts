import { Brackets, ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { PageMetaDto } from './list-query.dto';

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
