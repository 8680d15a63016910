import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Delete, Get, Post, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply, withMessage } from '../../common/response';
import { sendExport } from '../../common/streamed-export';
import {
  CreateAdminLicenseDto,
  ExportLicensesQueryDto,
  ExtendLicenseDto,
  ListAdminLicensesQueryDto,
  UpdateAdminLicenseDto,
} from './dto/admin-license.dto';
import {
  AdminLicenseDto,
  AdminLicenseListResponseDto,
  AdminLicenseResponseDto,
  AvailableVersionsDto,
  AvailableVersionsResponseDto,
  DeleteLicenseResponseDto,
  DeleteLicenseResultDto,
  GeneratedKeyDto,
  GeneratedKeyResponseDto,
  LicenseStatsDto,
  LicenseStatsResponseDto,
  RevokeLicenseResponseDto,
  RevokeLicenseResultDto,
  toAdminLicenseDto,
} from './dto/license.dto';
import { LICENSE_EXPORT_COLUMNS, licenseCsvLine, licenseJsonText } from './license-export';
import { LicenseProductsService } from './license-products.service';
import { AdminLicensesService } from './admin-licenses.service';
import { LicensesService } from './licenses.service';
import { AdminOnly } from '../../common/admin-only.decorator';
import { IdParam } from '../../common/id-param';

/** License Management. Static paths come before /:id so they are not taken for ids. */
@ApiTags('licenses')
@AdminOnly()
@Controller('admin/licenses')
export class AdminLicensesController {
  constructor(
    private readonly licenses: AdminLicensesService,
    private readonly core: LicensesService,
    private readonly products: LicenseProductsService,
  ) {}

  /** Lists licenses: search by key or e-mail start or product name; sort license_key, expires_at, created_at (default created_at desc); 25 per page by default. */
  @ApiGetResponse(AdminLicenseListResponseDto)
  async listAdminLicenses(@Query() query: ListAdminLicensesQueryDto): Promise<Reply<AdminLicenseDto[]>> {
    const { rows, total, page, limit } = await this.licenses.list(query);
    return pageOf(rows.map(toAdminLicenseDto), pageMeta(total, page, limit));
  }

  /** Issues a license. Product is one of "{app} Pro|Enterprise|Basic"; the key is generated unless one is typed. */
  @Post()
  @Audit('license.create', 'Create license', 'license')
  @ApiEnvelopeResponse(AdminLicenseResponseDto, { status: 201, message: 'License created successfully' })
  async createAdminLicense(@Body() dto: CreateAdminLicenseDto): Promise<AdminLicenseDto> {
    return toAdminLicenseDto(await this.licenses.create(dto));
  }

  /** Totals by status, test and paid licenses, licenses expiring within 30 days, and seats in use. */
  @ApiGetResponse(LicenseStatsResponseDto, 'stats')
  getLicenseStats(): Promise<LicenseStatsDto> {
    return this.licenses.stats();
  }

  /** Every license (optionally searched or filtered) as a CSV or JSON file download. */
  @Get('export')
  @ApiProduces('text/csv', 'application/json')
  @ApiOkResponse({ description: 'licenses_{date}.csv or .json', schema: { type: 'string' } })
  async exportLicenses(@Query() query: ExportLicensesQueryDto, @Res() response: Response): Promise<void> {
    await sendExport(response, {
      name: `licenses_${new Date().toISOString().slice(0, 10)}`,
      format: query.format ?? 'csv',
      columns: LICENSE_EXPORT_COLUMNS,
      batches: this.licenses.exportBatches(query),
      csvLine: licenseCsvLine,
      jsonText: licenseJsonText,
    });
  }

  /** Product choices: the admin tiers ("{app} Pro|Enterprise|Basic") and the versions clients may license ("{app} v{version}"). */
  @ApiGetResponse(AvailableVersionsResponseDto, 'available-versions')
  listAvailableVersions(): Promise<AvailableVersionsDto> {
    return this.products.availableVersions();
  }

  /** A fresh, unused key (SH- and 125 random bits), for the Create License form. */
  @Post('generate-key')
  @ApiEnvelopeResponse(GeneratedKeyResponseDto)
  async generateLicenseKey(): Promise<GeneratedKeyDto> {
    return { license_key: await this.core.generateUniqueKey() };
  }

  @ApiGetResponse(AdminLicenseResponseDto, ':id')
  async getAdminLicense(@IdParam() id: number): Promise<AdminLicenseDto> {
    return toAdminLicenseDto(await this.licenses.get(id));
  }

  /** Edits product, e-mail, expiry, max activations or the trial mark; the key never changes. */
  @Put(':id')
  @Audit('license.update', 'Update license', 'license')
  @ApiEnvelopeResponse(AdminLicenseResponseDto, { message: 'License updated successfully' })
  async updateAdminLicense(@IdParam() id: number, @Body() dto: UpdateAdminLicenseDto): Promise<AdminLicenseDto> {
    return toAdminLicenseDto(await this.licenses.update(id, dto));
  }

  /** Deletes for good: deactivates its devices and revokes it on the license server; answers with both outcomes. */
  @Delete(':id')
  @Audit('license.delete', 'Delete license', 'license')
  @ApiEnvelopeResponse(DeleteLicenseResponseDto)
  async deleteAdminLicense(@IdParam() id: number): Promise<Reply<DeleteLicenseResultDto>> {
    const { license, deactivated, serverRevocationSuccess } = await this.licenses.remove(id);
    const message =
      'License deleted successfully from local database' +
      (serverRevocationSuccess ? ' and revoked on license server' : ' (warning: could not revoke on license server)') +
      `. ${deactivated} installations deactivated.`;
    return withMessage(message, {
      id: license.id,
      license_key: license.license_key,
      server_revocation_success: serverRevocationSuccess,
      deactivated_installations: deactivated,
    });
  }

  /** Status revoked and every device deactivated; the user loses access until the license is activated again. */
  @Post(':id/revoke')
  @Audit('license.revoke', 'Revoke license', 'license')
  @ApiEnvelopeResponse(RevokeLicenseResponseDto, { message: 'License revoked successfully' })
  async revokeLicense(@IdParam() id: number): Promise<RevokeLicenseResultDto> {
    const { license, deactivated } = await this.licenses.revoke(id);
    return { ...toAdminLicenseDto(license), deactivated_installations: deactivated };
  }

  /** Makes a revoked or pending license active again (an expired one must be extended). */
  @Post(':id/activate')
  @Audit('license.activate', 'Activate license', 'license')
  @ApiEnvelopeResponse(AdminLicenseResponseDto, { message: 'License activated successfully' })
  async activateLicense(@IdParam() id: number): Promise<AdminLicenseDto> {
    return toAdminLicenseDto(await this.licenses.activate(id));
  }

  /** Extends by `days` or `months` (default 30 days); an expired license becomes active again. */
  @Post(':id/extend')
  @Audit('license.extend', 'Extend license', 'license')
  @ApiEnvelopeResponse(AdminLicenseResponseDto, { message: 'License extended successfully' })
  async extendLicense(@IdParam() id: number, @Body() dto: ExtendLicenseDto): Promise<AdminLicenseDto> {
    return toAdminLicenseDto(await this.licenses.extend(id, dto));
  }
}
