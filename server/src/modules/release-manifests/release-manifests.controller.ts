import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiError } from '../../common/api-error';
import { Public } from '../../common/public.decorator';
import { ApiGetFileResponse, ApiGetResponse } from '../../common/response';
import { ReleaseManifestDto, ReleaseVersionParamDto, SignedManifestDto, SignedManifestResponseDto } from './dto/release-manifest.dto';
import { ReleaseManifestsService, SignedManifest } from './release-manifests.service';

/**
 * Signed manifests of published releases, public (a manifest holds no secret): a streaming server or a script checks
 * a downloaded file against its release's manifest, the manifest with the key its kid names. Drafts, yanked and
 * unknown versions are 404. The .json and .sig forms are the signed bytes and the raw signature, for openssl.
 */
@ApiTags('release-manifests')
@Public()
@Controller('releases')
export class ReleaseManifestsController {
  constructor(private readonly manifests: ReleaseManifestsService) {}

  /** The release's manifest, its Ed25519 signature over the manifest's canonical JSON, and the signing key's id. */
  @ApiGetResponse(SignedManifestResponseDto, ':version/manifest')
  async getReleaseManifest(@Param() params: ReleaseVersionParamDto): Promise<SignedManifestDto> {
    const { manifest, signature, kid } = await this.find(params.version);
    return { manifest, signature, kid };
  }

  /** Exactly the signed bytes: the manifest as canonical JSON. */
  @Get(':version/manifest.json')
  @ApiProduces('application/json')
  @ApiOkResponse({ type: ReleaseManifestDto })
  async getReleaseManifestBytes(@Param() params: ReleaseVersionParamDto, @Res() response: Response): Promise<void> {
    send(response, 'application/json; charset=utf-8', (await this.find(params.version)).bytes);
  }

  /** The raw 64-byte Ed25519 signature of manifest.json (`openssl pkeyutl -verify -rawin -sigfile`). */
  @ApiGetFileResponse(':version/manifest.sig')
  async getReleaseManifestSignature(@Param() params: ReleaseVersionParamDto, @Res() response: Response): Promise<void> {
    send(response, 'application/octet-stream', Buffer.from((await this.find(params.version)).signature, 'base64'));
  }

  private async find(version: string): Promise<SignedManifest> {
    return ApiError.orNotFound(await this.manifests.manifestFor(version), `Release ${version} not found`);
  }
}

function send(response: Response, type: string, body: Buffer): void {
  response.setHeader('Content-Type', type);
  response.setHeader('Content-Length', String(body.length));
  response.end(body);
}
