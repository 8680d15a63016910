import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { ApiGetResponse, pageOf, Reply } from '../../common/response';
import { ClientVersionsService } from './client-versions.service';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { ReleaseCoverageService } from '../licenses/release-coverage.service';
import { ClientVersionDto, ClientVersionListResponseDto, toClientVersionDto } from './dto/distribution-file.dto';
import { CLIENT_VERSIONS_PAGE_SIZE, ListClientVersionsQueryDto } from './dto/list-client-versions-query.dto';

/**
 * The client dashboard's Available Downloads: a page of versions with their files. Keys and internals never appear
 * here. Express's ETag gives 304 to a dashboard that has the page already.
 */
@ApiTags('downloads')
@Controller()
export class ClientVersionsController {
  constructor(
    private readonly catalog: ClientVersionsService,
    private readonly coverage: ReleaseCoverageService,
  ) {}

  /** A page of published versions with their distribution files, newest first, each with what the caller's licenses allow of it (any signed-in user). */
  @ApiGetResponse(ClientVersionListResponseDto, 'versions')
  listVersions(@Query() query: ListClientVersionsQueryDto, @CurrentUser() user: AuthUser): Promise<Reply<ClientVersionDto[]>> {
    return this.catalogPage(query, user);
  }

  /** The same list as GET /api/versions, under the client's path. */
  @ApiGetResponse(ClientVersionListResponseDto, 'client/versions')
  listClientVersions(@Query() query: ListClientVersionsQueryDto, @CurrentUser() user: AuthUser): Promise<Reply<ClientVersionDto[]>> {
    return this.catalogPage(query, user);
  }

  /** Each version says what the caller's licenses allow of it (the catalog itself is the same for everyone). */
  private async catalogPage(query: ListClientVersionsQueryDto, user: AuthUser): Promise<Reply<ClientVersionDto[]>> {
    const { rows, total, page, limit } = await this.catalog.page(query, CLIENT_VERSIONS_PAGE_SIZE);
    const access = await this.coverage.accessTo(user, rows.map(({ version }) => version));
    return pageOf(
      rows.map(({ version, files }, index) => toClientVersionDto(version, files, access[index])),
      pageMeta(total, page, limit),
    );
  }
}
