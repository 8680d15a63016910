import { Controller, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { ApiGetResponse, pageOf, Reply } from '../../common/response';
import { ClientVersionsService } from './client-versions.service';
import { ClientVersionDto, ClientVersionListResponseDto, toClientVersionDto } from './dto/distribution-file.dto';
import { CLIENT_VERSIONS_PAGE_SIZE, ListClientVersionsQueryDto } from './dto/list-client-versions-query.dto';

/**
 * The client dashboard's Available Downloads: a page of versions with their files. Keys and internals never appear
 * here. Express's ETag gives 304 to a dashboard that has the page already.
 */
@ApiTags('downloads')
@Controller()
export class ClientVersionsController {
  constructor(private readonly catalog: ClientVersionsService) {}

  /** A page of versions with their distribution files, latest first then newest release (any signed-in user). */
  @ApiGetResponse(ClientVersionListResponseDto, 'versions')
  listVersions(@Query() query: ListClientVersionsQueryDto): Promise<Reply<ClientVersionDto[]>> {
    return this.catalogPage(query);
  }

  /** The same list as GET /api/versions, under the client's path. */
  @ApiGetResponse(ClientVersionListResponseDto, 'client/versions')
  listClientVersions(@Query() query: ListClientVersionsQueryDto): Promise<Reply<ClientVersionDto[]>> {
    return this.catalogPage(query);
  }

  private async catalogPage(query: ListClientVersionsQueryDto): Promise<Reply<ClientVersionDto[]>> {
    const { rows, total, page, limit } = await this.catalog.page(query, CLIENT_VERSIONS_PAGE_SIZE);
    return pageOf(
      rows.map(({ version, files }) => toClientVersionDto(version, files)),
      pageMeta(total, page, limit),
    );
  }
}
