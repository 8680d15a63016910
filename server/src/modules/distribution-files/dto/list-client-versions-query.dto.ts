import { OptionalIntBetween } from '../../../common/fields';
import { PickType } from '@nestjs/swagger';
import { ListQueryDto } from '../../../common/list-query.dto';

/** Versions per page of the client's catalog unless asked. */
export const CLIENT_VERSIONS_PAGE_SIZE = 10;
/** At most this many versions per page: each comes with all its files. */
export const CLIENT_VERSIONS_MAX_LIMIT = 50;

/** One page of the client's catalog: `page` from 1, `limit` versions (10 by default, at most 50). */
export class ListClientVersionsQueryDto extends PickType(ListQueryDto, ['page'] as const) {
  /** Versions per page (10 by default, at most 50). */
  @OptionalIntBetween(1, CLIENT_VERSIONS_MAX_LIMIT)
  limit?: number;
}
