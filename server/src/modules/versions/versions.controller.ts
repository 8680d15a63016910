import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Delete, Post, Put, Query, Req, Res, UploadedFile } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Inject } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { MessageResponseDto } from '../../common/message-response.dto';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, ApiGetFileResponse, pageOf, Reply, withMessage } from '../../common/response';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import { ARCHITECTURES, OS_TYPES } from './versions.constants';
import { FileStorage } from '../storage/file-storage';
import { DISTRIBUTION_EXTENSIONS, VERSION_EXTENSIONS } from '../storage/file-names';
import { sendStoredFile } from '../storage/send-stored-file';
import { StoredUpload, MultipartUpload } from '../storage/upload.interceptor';
import { ListVersionsQueryDto } from './dto/list-versions-query.dto';
import { ToggleVersionStatusDto, UpdateVersionDto, UploadVersionDto } from './dto/version-form.dto';
import {
  AdminVersionDto,
  AdminVersionListResponseDto,
  AdminVersionResponseDto,
  SupportedVersionsDto,
  SupportedVersionsResponseDto,
  toAdminVersionDto,
  VersionListMetaDto,
} from './dto/version.dto';
import { VersionCatalogService } from './version-catalog.service';
import { VersionsService } from './versions.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

/** Version Management. Static paths come before /:id so they are not taken for ids. */
@ApiTags('versions')
@AdminOnly()
@Controller('admin')
export class VersionsController {
  constructor(
    private readonly versions: VersionsService,
    private readonly catalog: VersionCatalogService,
    private readonly storage: FileStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** Lists versions: search over version, changelog, download_url; sort release_date, created_at or version (default created_at desc); 25 per page by default. */
  @ApiGetResponse(AdminVersionListResponseDto, 'versions')
  async listAdminVersions(@Query() query: ListVersionsQueryDto): Promise<Reply<AdminVersionDto[]>> {
    const { rows, total, overallTotal, lastSyncAt, page, limit } = await this.versions.list(query);
    const meta: VersionListMetaDto = { ...pageMeta(total, page, limit), overall_total: overallTotal, last_sync_at: lastSyncAt };
    return pageOf(rows.map(toAdminVersionDto), meta);
  }

  /** What uploads accept (OS types, architectures, extensions, maximum size) and every version, latest first. */
  @ApiGetResponse(SupportedVersionsResponseDto, 'versions/supported')
  async getSupportedVersions(): Promise<SupportedVersionsDto> {
    const versions = await this.catalog.all();
    return {
      versions: versions.map((v) => ({
        id: v.id,
        version: v.version,
        release_date: v.release_date,
        is_stable: v.is_stable,
        is_latest: v.is_latest,
      })),
      os_types: [...OS_TYPES],
      architectures: [...ARCHITECTURES],
      version_extensions: [...VERSION_EXTENSIONS],
      file_extensions: [...DISTRIBUTION_EXTENSIONS],
      max_upload_bytes: this.config.storage.maxUploadBytes,
    };
  }

  @ApiGetResponse(AdminVersionResponseDto, 'versions/:id')
  async getVersion(@IdParam() id: number): Promise<AdminVersionDto> {
    return toAdminVersionDto(await this.versions.get(id));
  }

  /**
   * Upload Version (multipart/form-data). The file is optional
   * (.zip, .exe, .dmg, .pkg; 415 otherwise, 413 beyond MAX_UPLOAD_BYTES); it streams to storage while its
   * SHA-256 is computed. The first version, or one sent with is_latest, becomes the latest.
   */
  @Post('upload')
  @Audit('version.upload', 'Upload version', 'version')
  @MultipartUpload(VERSION_EXTENSIONS, UploadVersionDto)
  @ApiEnvelopeResponse(AdminVersionResponseDto, { status: 201, message: 'Version uploaded successfully' })
  async uploadVersion(
    @Body() dto: UploadVersionDto,
    @UploadedFile() file: StoredUpload | undefined,
    @CurrentUser() actor: AuthUser,
  ): Promise<AdminVersionDto> {
    return toAdminVersionDto(await this.versions.create(dto, file, actor));
  }

  /** Edits a version (any subset of fields; version and release date cannot be emptied). is_latest true makes it the one latest version. */
  @Put('versions/:id')
  @Audit('version.update', 'Update version', 'version')
  @ApiEnvelopeResponse(AdminVersionResponseDto, { message: 'Version updated successfully' })
  async updateVersion(@IdParam() id: number, @Body() dto: UpdateVersionDto): Promise<AdminVersionDto> {
    return toAdminVersionDto(await this.versions.update(id, dto));
  }

  /** Deletes the version with its distribution files (rows and stored files); the newest remaining version becomes latest if needed. */
  @Delete('versions/:id')
  @Audit('version.delete', 'Delete version', 'version')
  @ApiEnvelopeResponse(MessageResponseDto, { message: 'Version deleted successfully' })
  async deleteVersion(@IdParam() id: number): Promise<void> {
    await this.versions.remove(id);
  }

  /** Flips Stable/Beta (flag is_stable, the default) or Latest/Older (flag is_latest; un-marking the latest is refused with 409, a draft or yanked version as the latest with 400). */
  @Post('versions/:id/toggle-status')
  @Audit('version.flags', 'Change version flags', 'version')
  @ApiEnvelopeResponse(AdminVersionResponseDto)
  async toggleVersionStatus(@IdParam() id: number, @Body() dto: ToggleVersionStatusDto): Promise<Reply<AdminVersionDto>> {
    const flag = dto.flag ?? 'is_stable';
    const version = await this.versions.toggle(id, flag);
    const message =
      flag === 'is_latest' ? 'Version marked as latest' : version.is_stable ? 'Version marked as stable' : 'Version marked as beta';
    return withMessage(message, toAdminVersionDto(version));
  }

  /** The file uploaded with the version (Range and HEAD supported). */
  @ApiGetFileResponse('versions/:id/file')
  async downloadVersionFile(@IdParam() id: number, @Req() request: Request, @Res() response: Response): Promise<void> {
    const version = await this.versions.get(id);
    if (!version.storage_key || version.file_size === null || !version.file_hash || !version.file_name)
      throw ApiError.notFound(`Version ${version.version} has no uploaded file`);
    await sendStoredFile(this.storage, request, response, {
      storageKey: version.storage_key,
      size: version.file_size,
      sha256: version.file_hash,
      fileName: version.file_name,
    });
  }
}
