import { Controller, Get, Param, Query, Req, Res } from '@nestjs/common';
import { ApiFoundResponse, ApiNoContentResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiError } from '../../common/api-error';
import { ApiEnvelopeResponse } from '../../common/response';
import type { LicenseHolder } from '../license-server/license-server.service';
import { PlatformParamDto, ReleaseChoiceQueryDto, UpdateOfferDto, UpdateOfferResponseDto, UpgradeQueryDto } from './dto/update.dto';
import { CurrentLicenseHolder, LicenseKeyAuth } from './license-key.guard';
import { UpdatesService } from './updates.service';

const originOf = (request: Request) => ({ protocol: request.protocol, host: request.host });

/**
 * The update API for streaming servers: which release to move to, with signed links and the signed manifest.
 * Authenticated by the license key (and server id) of the activation API; `releases/{version}/manifest*` are the
 * public manifests themselves.
 */
@ApiTags('updates')
@Controller('releases')
export class UpdatesController {
  constructor(private readonly updates: UpdatesService) {}

  /**
   * The newest release this server may move to: covered by its license, in its channel (or a steadier one), within
   * the constraint, above `current`, with a build for its OS and architecture. 204 when it runs the newest (or
   * nothing newer has a build for it). The same answer within a minute has the same ETag: send If-None-Match for a 304.
   */
  @Get('upgrade')
  @LicenseKeyAuth('required')
  @ApiEnvelopeResponse(UpdateOfferResponseDto)
  @ApiNoContentResponse({ description: 'The server runs the newest release it may have' })
  async checkForUpdate(
    @Query() query: UpgradeQueryDto,
    @CurrentLicenseHolder() holder: LicenseHolder,
    @Req() request: Request,
    @Res({ passthrough: true }) response: Response,
  ): Promise<UpdateOfferDto | undefined> {
    const offer = await this.updates.offer(holder, requestOf(query, query.current ?? null, query), originOf(request));
    response.setHeader('Cache-Control', 'private, no-cache');
    if (offer) return offer;
    response.status(204);
    return undefined;
  }

  /**
   * For scripts (`curl -fLO -H 'Authorization: License …'`): the newest release the license covers for this OS and
   * architecture, redirected (302) to its first build's signed link, the offer in the body. 404 when none has a build for it.
   */
  @Get('latest/:os/:arch')
  @LicenseKeyAuth('optional')
  @ApiFoundResponse({ type: UpdateOfferResponseDto, description: "Location: the first build's signed link", headers: { Location: {} } })
  @ApiNotFoundResponse({ description: 'No release the license covers has a build for this OS and architecture' })
  async downloadLatestRelease(
    @Param() platform: PlatformParamDto,
    @Query() query: ReleaseChoiceQueryDto,
    @CurrentLicenseHolder() holder: LicenseHolder,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    const offer = await this.updates.offer(holder, requestOf(platform, null, query), originOf(request));
    if (!offer) throw ApiError.notFound(`No release you may have has a build for ${platform.os} ${platform.arch}`);
    response.setHeader('Cache-Control', 'private, no-store');
    response.status(302).location(offer.files[0].url).json({ success: true, data: offer });
  }
}

function requestOf(platform: PlatformParamDto, current: string | null, choice: ReleaseChoiceQueryDto) {
  return { current, os: platform.os, arch: platform.arch, channel: choice.channel ?? 'stable', constraint: choice.constraint ?? null };
}
