import { Controller, Get, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { VersionsService } from '../versions/versions.service';
import { DistributionFileEntity } from './distribution-file.entity';
import { ClientVersionListResponseDto, toClientVersionDto } from './dto/distribution-file.dto';
import { CLIENT_VERSIONS_PAGE_SIZE, ListClientVersionsQueryDto } from './dto/list-client-versions-query.dto';
import { DistributionFilesService } from './distribution-files.service';

/**
 * The client dashboard's Available Downloads: a page of versions with their files. Keys and internals never appear
 * here. A page is read afresh each time (a few index reads); Express's ETag answers 304 to a dashboard that has it.
 */
@ApiTags('downloads')
@Controller()
export class ClientVersionsController {
  constructor(
    private readonly versions: VersionsService,
    private readonly files: DistributionFilesService,
  ) {}

  /** A page of versions with their distribution files, latest first then newest release (any signed-in user). */
  @Get('versions')
  listVersions(@Query() query: ListClientVersionsQueryDto): Promise<ClientVersionListResponseDto> {
    return this.catalogPage(query);
  }

  /** The same list as GET /api/versions, under the client's path. */
  @Get('client/versions')
  listClientVersions(@Query() query: ListClientVersionsQueryDto): Promise<ClientVersionListResponseDto> {
    return this.catalogPage(query);
  }

  private async catalogPage(query: ListClientVersionsQueryDto): Promise<ClientVersionListResponseDto> {
    const { rows, total, page, limit } = await this.versions.clientPage(query, CLIENT_VERSIONS_PAGE_SIZE);
    const byVersion = new Map<number, DistributionFileEntity[]>();
    for (const file of await this.files.forVersions(rows.map((version) => version.id))) {
      const files = byVersion.get(file.version_id);
      if (files) files.push(file);
      else byVersion.set(file.version_id, [file]);
    }
    return {
      success: true,
      data: rows.map((version) => toClientVersionDto(version, byVersion.get(version.id) ?? [])),
      meta: pageMeta(total, page, limit),
    };
  }
}
