import { OptionalIntBetween, OptionalText } from '../common/fields';
import { IsIn, IsOptional } from 'class-validator';

export type SortOrder = 'asc' | 'desc';

/** Query parameters every list shares: `page`, `limit`, `order`, `search`. */
export class ListQueryDto {
  /** Page number, from 1. */
  @OptionalIntBetween(1, 1_000_000)
  page?: number;

  /** Rows per page. */
  @OptionalIntBetween(1, 100)
  limit?: number;

  /** Sort direction. */
  @IsOptional()
  @IsIn(['asc', 'desc'])
  order?: SortOrder;

  /** Free-text search. */
  @OptionalText(200)
  search?: string;
}

export class PageMetaDto {
  /**
   * Rows matching the search and filters. The admin lists of licenses, users, devices, orders and distribution files
   * count exactly up to 10,000 matches and give an estimate above that (a count at most a minute old, or 10,001 while
   * the first count runs): counting a million rows for every page would cost more than the page.
   */
  total: number;
  page: number;
  limit: number;
  /** Number of pages (at least 1). */
  pages: number;
}
