import { OptionalOneOf } from '../../../common/fields';
import { ListQueryDto } from '../../../common/list-query.dto';

export const VERSION_SORT_KEYS = ['release_date', 'created_at', 'version'] as const;
export type VersionSortKey = (typeof VERSION_SORT_KEYS)[number];

/** `search` looks in version, changelog and download_url; default sort created_at desc, 25 per page. */
export class ListVersionsQueryDto extends ListQueryDto {
  @OptionalOneOf(VERSION_SORT_KEYS, { default: 'created_at' })
  sort?: VersionSortKey;
}
