import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { VersionsService } from '../versions/versions.service';
import { DistributionFileEntity } from './distribution-file.entity';
import { ClientVersionDto, ClientVersionListResponseDto, toClientVersionDto } from './dto/distribution-file.dto';
import { DistributionFilesService } from './distribution-files.service';

/** The client dashboard's Available Downloads: every version with its files. Keys and internals never appear here. */
@ApiTags('downloads')
@Controller()
export class ClientVersionsController {
  constructor(
    private readonly versions: VersionsService,
    private readonly files: DistributionFilesService,
  ) {}

  /** Versions with their distribution files, latest first then newest release (any signed-in user). */
  @Get('versions')
  async listVersions(): Promise<ClientVersionListResponseDto> {
    return { success: true, data: await this.clientVersions() };
  }

  /** The same list as GET /api/versions, under the client's path. */
  @Get('client/versions')
  async listClientVersions(): Promise<ClientVersionListResponseDto> {
    return { success: true, data: await this.clientVersions() };
  }

  private async clientVersions(): Promise<ClientVersionDto[]> {
    const versions = await this.versions.all();
    const byVersion = new Map<number, DistributionFileEntity[]>();
    for (const file of await this.files.forVersions(versions.map((version) => version.id))) {
      byVersion.set(file.version_id, [...(byVersion.get(file.version_id) ?? []), file]);
    }
    return versions.map((version) => toClientVersionDto(version, byVersion.get(version.id) ?? []));
  }
}
