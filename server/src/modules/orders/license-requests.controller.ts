import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { ApiEnvelopeResponse, ApiGetResponse, Reply, withMessage } from '../../common/response';
import { CreateLicenseDto } from '../licenses/dto/create-license.dto';
import { toLicenseDto } from '../licenses/dto/license.dto';
import { LicenseProductsService } from '../licenses/license-products.service';
import { LicensesService } from '../licenses/licenses.service';
import { LicenseRequestResponseDto, LicenseRequestResultDto, toOrderDto } from './dto/order.dto';
import { OrdersService } from './orders.service';
import { LicenseOptionsDto, LicenseOptionsResponseDto } from './dto/license-options.dto';

/**
 * POST /api/licenses: a client's request for a license. It lives with orders because a paid license is an
 * order (licenses do not depend on orders; orders depend on licenses).
 */
@ApiTags('licenses')
@Controller('licenses')
export class LicenseRequestsController {
  constructor(
    private readonly licenses: LicensesService,
    private readonly products: LicenseProductsService,
    private readonly orders: OrdersService,
  ) {}

  /**
   * Whether the caller may take a test license or buy one now, with the reason where not (no release yet, test
   * licenses or purchases switched off, the test-license limit reached): what POST would answer, before the click.
   */
  @ApiGetResponse(LicenseOptionsResponseDto, 'options')
  async licenseOptions(@CurrentUser() user: AuthUser): Promise<LicenseOptionsDto> {
    const noRelease = await this.products.releaseRefusal();
    const option = (refusal: Error | null) => ({ available: !refusal, reason: refusal?.message ?? null });
    return {
      trial: option(noRelease ?? (await this.licenses.trialRefusal(user))),
      purchase: option((await this.orders.purchaseRefusal()) ?? noRelease),
    };
  }

  /**
   * Issues a license to the signed-in user (409 before the first version is published). `trial`: duration and devices from the test-license settings
   * (403 when test licenses are off, 409 at the per-user limit). `paid`: an order for max_activations devices ×
   * duration_months, charged through the payment provider at the server's price. duration_days, price and
   * user_email are accepted for compatibility and ignored.
   */
  @Post()
  @Audit('license.request', 'Request license', 'license')
  @ApiEnvelopeResponse(LicenseRequestResponseDto, { status: 201 })
  async createLicense(@CurrentUser() user: AuthUser, @Body() dto: CreateLicenseDto): Promise<Reply<LicenseRequestResultDto>> {
    if (dto.license_type === 'trial') {
      await this.products.assertClientProduct(dto.product_name);
      const license = await this.licenses.createTrial(user, dto.product_name);
      return withMessage('Test License Created', { license: toLicenseDto(license), order: null });
    }
    const { order, license } = await this.orders.purchase(
      user,
      { product_name: dto.product_name, devices: dto.max_activations, months: dto.duration_months },
      { devices: 'max_activations', months: 'duration_months' },
    );
    return withMessage('License Purchased Successfully!', { license: toLicenseDto(license), order: toOrderDto(order, license) });
  }
}
