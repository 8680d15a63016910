import { Controller, HttpStatus, Post, Query, Req, Res } from '@nestjs/common';
import { ApiForbiddenResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError } from '../../common/api-error';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { pageMeta } from '../../common/pagination';
import { Public } from '../../common/public.decorator';
import { ApiEnvelopeResponse, ApiGetResponse, ApiGetFileResponse, pageOf, Reply } from '../../common/response';
import { DistributionFileDto, toDistributionFileDto } from '../distribution-files/dto/distribution-file.dto';
import { DistributionFilesService } from '../distribution-files/distribution-files.service';
import { DownloadLogsService } from '../logs/download-logs.service';
import { UsersService } from '../users/users.service';
import { DownloadLinksService } from './download-links.service';
import { DownloadsService } from './downloads.service';
import {
  DownloadHistoryEntryDto,
  DownloadHistoryQueryDto,
  DownloadHistoryResponseDto,
  DownloadInfoResponseDto,
  DownloadLinkDto,
  DownloadLinkResponseDto,
  DownloadRefusalDto,
  SignedDownloadQueryDto,
  toDownloadHistoryEntryDto,
} from './dto/download.dto';
import { installCommands } from './install-command';
import { ReleaseManifestsService } from '../release-manifests/release-manifests.service';
import { IdParam } from '../../common/id-param';

/** Downloads of distribution files by signed-in users, signed links for curl and package managers, and each user's history. */
@ApiTags('downloads')
@Controller()
export class DownloadsController {
  constructor(
    private readonly downloads: DownloadsService,
    private readonly files: DistributionFilesService,
    private readonly links: DownloadLinksService,
    private readonly logs: DownloadLogsService,
    private readonly users: UsersService,
    private readonly manifests: ReleaseManifestsService,
  ) {}

  /**
   * Streams the file (GET or HEAD): Content-Disposition with the UTF-8 name, Content-Length, ETag (the SHA-256),
   * Accept-Ranges; `Range` gives 206 (resume) or 416. A download from the first byte counts once and is logged.
   */
  @ApiGetFileResponse('download/:id')
  @ApiForbiddenResponse({ type: DownloadRefusalDto, description: "The customer's licenses do not allow this release" })
  async downloadFile(
    @IdParam() id: number,
    @CurrentUser() user: AuthUser,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const file = await this.downloads.find(id, user);
    await this.downloads.send(file, { userId: user.id, email: user.email, via: 'session', ip: request.ip ?? null }, request, response);
  }

  /** Name, size, SHA-256 and version of a file. */
  @ApiGetResponse(DownloadInfoResponseDto, 'download/:id/info')
  async getDownloadInfo(@IdParam() id: number): Promise<DistributionFileDto> {
    // The count shown includes every download this instance served, and its log rows are stored with it.
    await this.downloads.flush();
    const file = await this.files.get(id);
    return toDistributionFileDto(file, file.version);
  }

  /**
   * A short-lived signed link to the file that works without a bearer token (curl, package managers), with the
   * download command (SHA-256 checked, and for a published release the signed manifest: openssl 3) and, for Linux
   * packages, the install command.
   */
  @Post('download/:id/link')
  @ApiEnvelopeResponse(DownloadLinkResponseDto)
  @ApiForbiddenResponse({ type: DownloadRefusalDto, description: "The customer's licenses do not allow this release" })
  async createDownloadLink(@IdParam() id: number, @CurrentUser() user: AuthUser, @Req() request: Request): Promise<DownloadLinkDto> {
    const file = await this.downloads.find(id, user);
    // Express 5's request.host honours X-Forwarded-Host under TRUST_PROXY, as request.protocol does X-Forwarded-Proto.
    const baseUrl = this.links.baseUrl({ protocol: request.protocol, host: request.host });
    const link = this.links.sign(file.id, user.id);
    const url = this.links.url(link, baseUrl);
    const check = await this.manifests.checkFor(file);
    const release = check && `${baseUrl}/api/releases/${encodeURIComponent(check.version)}`;
    const verification = check && {
      manifestUrl: `${release}/manifest.json`,
      signatureUrl: `${release}/manifest.sig`,
      entry: check.entry,
      publicKeyDer: check.publicKeyDer,
    };
    return {
      url,
      expires_at: new Date(link.expires * 1000),
      file_name: file.file_name,
      file_size: file.file_size,
      file_hash: file.file_hash,
      ...installCommands(url, file.file_name, file.file_hash, verification),
    };
  }

  /** The file through a signed link (GET or HEAD), no bearer token: 403 when the link was altered, 410 once it expired. */
  @Public()
  @ApiGetFileResponse('download/:id/signed')
  @ApiForbiddenResponse({ type: DownloadRefusalDto, description: "The link was altered, or the customer's licenses do not allow this release" })
  async downloadFileWithLink(
    @IdParam() id: number,
    @Query() query: SignedDownloadQueryDto,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const check = this.links.verify(id, query.user, query.expires, query.signature);
    if (!check.ok) {
      if (check.reason === 'expired')
        throw new ApiError(HttpStatus.GONE, 'This download link has expired. Copy a new command from the dashboard.');
      throw ApiError.forbidden('Invalid download link');
    }
    const owner = await this.users.get(check.link.userId).catch(() => null);
    if (!owner?.is_active) throw ApiError.forbidden('Invalid download link');
    const file = await this.downloads.find(id, { id: owner.id, role: owner.role, linkNow: this.links.clock() });
    await this.downloads.send(file, { userId: owner.id, email: owner.email, via: 'link', ip: request.ip ?? null }, request, response);
  }

  /** The caller's own downloads, newest first. */
  @ApiGetResponse(DownloadHistoryResponseDto, 'downloads/history')
  async listDownloadHistory(
    @Query() query: DownloadHistoryQueryDto,
    @CurrentUser() user: AuthUser,
  ): Promise<Reply<DownloadHistoryEntryDto[]>> {
    const { rows, total, page, limit } = await this.logs.list({ user_id: user.id, page: query.page, limit: query.limit ?? 25 });
    return pageOf(rows.map(toDownloadHistoryEntryDto), pageMeta(total, page, limit));
  }
}
