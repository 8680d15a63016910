import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** Versions per page of the client's catalog unless asked. */
export const CLIENT_VERSIONS_PAGE_SIZE = 10;
/** At most this many versions per page: each comes with all its files. */
export const CLIENT_VERSIONS_MAX_LIMIT = 50;

/** One page of the client's catalog: `page` from 1, `limit` versions (10 by default, at most 50). */
export class ListClientVersionsQueryDto {
  /** Page number, from 1. */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  /** Versions per page (10 by default, at most 50). */
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(CLIENT_VERSIONS_MAX_LIMIT)
  limit?: number;
}
