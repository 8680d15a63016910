import { OptionalOneOf } from '../../../common/fields';
import { ListQueryDto } from '../../../common/list-query.dto';
import { CHANNELS, type Channel, VERSION_STATES, type VersionState } from '../versions.constants';

export const VERSION_SORT_KEYS = ['release_date', 'created_at', 'version'] as const;
export type VersionSortKey = (typeof VERSION_SORT_KEYS)[number];

/** `search` looks in version, changelog and download_url; `version` sorts by semantic version; default sort created_at desc, 25 per page. */
export class ListVersionsQueryDto extends ListQueryDto {
  @OptionalOneOf(VERSION_SORT_KEYS, { default: 'created_at' })
  sort?: VersionSortKey;

  /** Only versions of this channel. */
  @OptionalOneOf(CHANNELS, { enumName: 'VersionChannel' })
  channel?: Channel;

  /** Only versions in this state. */
  @OptionalOneOf(VERSION_STATES, { enumName: 'VersionState' })
  state?: VersionState;
}
