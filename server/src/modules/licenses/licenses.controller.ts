import { Body, Controller, Get, Post, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { ListQueryDto } from '../../common/list-query.dto';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply } from '../../common/response';
import {
  LicenseDto,
  LicenseListResponseDto,
  LicenseProductListResponseDto,
  LicenseVerificationDto,
  LicenseVerificationResponseDto,
  toLicenseDto,
} from './dto/license.dto';
import { VerifyLicenseDto } from './dto/verify-license.dto';
import { LicenseProductsService } from './license-products.service';
import { LicensesService } from './licenses.service';
import { IdParam } from '../../common/id-param';

/** The signed-in client's own licenses (My Licenses). Requesting a license is POST /api/licenses, with orders. */
@ApiTags('licenses')
@Controller('licenses')
export class LicensesController {
  constructor(
    private readonly licenses: LicensesService,
    private readonly products: LicenseProductsService,
  ) {}

  /** The caller's licenses, newest first (default 50 per page). */
  @ApiGetResponse(LicenseListResponseDto)
  async listMyLicenses(@CurrentUser() user: AuthUser, @Query() query: ListQueryDto): Promise<Reply<LicenseDto[]>> {
    const { rows, total, page, limit } = await this.licenses.listForUser(user, query.page ?? 1, query.limit ?? 50);
    return pageOf(rows.map(toLicenseDto), pageMeta(total, page, limit));
  }

  /** The product choices of the test and purchase dialogs: "{app_info.name} v{version}" per version, latest first. */
  @ApiGetResponse(LicenseProductListResponseDto, 'products')
  listLicenseProducts(): Promise<string[]> {
    return this.products.clientProducts();
  }

  /**
   * Whether a license key is usable now (code VALID, EXPIRED, REVOKED, PENDING or NOT_FOUND). Any key may be
   * checked; the full license is returned only for the caller's own keys.
   */
  @Post('verify')
  @ApiEnvelopeResponse(LicenseVerificationResponseDto)
  verifyLicense(@Body() dto: VerifyLicenseDto, @CurrentUser() user: AuthUser): Promise<LicenseVerificationDto> {
    return this.licenses.verify(dto.license_key, user);
  }

  /**
   * The signed license file `license.key` (owner or admin): an Ed25519 signature over canonical JSON,
   * verifiable offline with GET /api/license-server/public-key.
   */
  @Get(':id/file')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'The armored license file', schema: { type: 'string' } })
  async downloadLicenseFile(
    @IdParam() id: number,
    @CurrentUser() user: AuthUser,
    @Res({ passthrough: true }) response: Response,
  ): Promise<string> {
    const file = await this.licenses.licenseFile(id, user);
    response.setHeader('Content-Type', 'text/plain; charset=utf-8');
    response.setHeader('Content-Disposition', 'attachment; filename="license.key"');
    response.setHeader('Cache-Control', 'no-store');
    return file;
  }
}
