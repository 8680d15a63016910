import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Delete, Post, Query, UploadedFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply } from '../../common/response';
import { DISTRIBUTION_EXTENSIONS } from '../storage/file-names';
import { StoredUpload, MultipartUpload } from '../storage/upload.interceptor';
import { VersionCatalogService } from '../versions/version-catalog.service';
import { ListDistributionFilesQueryDto, UploadDistributionFileDto } from './dto/distribution-file-form.dto';
import {
  DistributionFileDto,
  DistributionFileListResponseDto,
  DistributionFileResponseDto,
  FileStatsDto,
  FileStatsResponseDto,
  FileVersionChoiceDto,
  FileVersionChoicesResponseDto,
  toDistributionFileDto,
  toFileVersionChoiceDto,
} from './dto/distribution-file.dto';
import { DistributionFilesService } from './distribution-files.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

/** File Management. Static paths come before /:id so they are not taken for ids. */
@ApiTags('distribution-files')
@AdminOnly()
@Controller('admin/distribution-files')
export class DistributionFilesController {
  constructor(
    private readonly files: DistributionFilesService,
    private readonly versions: VersionCatalogService,
  ) {}

  /** Lists files: filters version_id, os_type, architecture; search over file_name and version; sort (default created_at desc); 25 per page by default. */
  @ApiGetResponse(DistributionFileListResponseDto)
  async listDistributionFiles(@Query() query: ListDistributionFilesQueryDto): Promise<Reply<DistributionFileDto[]>> {
    const { rows, total, page, limit } = await this.files.list(query);
    return pageOf(
      rows.map((file) => toDistributionFileDto(file, file.version)),
      pageMeta(total, page, limit),
    );
  }

  /** Versions for the upload form and the version filter: latest first, then newest release. */
  @ApiGetResponse(FileVersionChoicesResponseDto, 'versions')
  async listDistributionFileVersions(): Promise<FileVersionChoiceDto[]> {
    return (await this.versions.all()).map(toFileVersionChoiceDto);
  }

  /** total_files, total_downloads, total_size (bytes) and files_by_os. */
  @ApiGetResponse(FileStatsResponseDto, 'stats')
  getDistributionFileStats(): Promise<FileStatsDto> {
    return this.files.stats();
  }

  /**
   * Upload Distribution File (multipart/form-data): version_id, os_type, architecture, file, optional file_name.
   * Types .exe, .dmg, .pkg, .tar.gz, .zip, .deb, .rpm (415 otherwise); 413 beyond MAX_UPLOAD_BYTES; the file streams to
   * storage while its SHA-256 is computed, and a refused or aborted upload leaves neither file nor row.
   */
  @Post()
  @Audit('file.upload', 'Upload distribution file', 'file')
  @MultipartUpload(DISTRIBUTION_EXTENSIONS, UploadDistributionFileDto)
  @ApiEnvelopeResponse(DistributionFileResponseDto, { status: 201, message: 'File uploaded successfully' })
  async uploadDistributionFile(
    @Body() dto: UploadDistributionFileDto,
    @UploadedFile() file: StoredUpload | undefined,
    @CurrentUser() actor: AuthUser,
  ): Promise<DistributionFileDto> {
    const stored = await this.files.upload(dto, file, actor);
    return toDistributionFileDto(stored, stored.version);
  }

  /** Deletes the file: its row and its stored bytes. */
  @Delete(':id')
  @Audit('file.delete', 'Delete distribution file', 'file')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'File deleted successfully' })
  async deleteDistributionFile(@IdParam() id: number): Promise<void> {
    await this.files.remove(id);
  }
}
