import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { ApiEnvelopeResponse, Reply, withMessage } from '../../common/response';
import { CreateLicenseDto } from '../licenses/dto/create-license.dto';
import { toLicenseDto } from '../licenses/dto/license.dto';
import { LicenseProductsService } from '../licenses/license-products.service';
import { LicensesService } from '../licenses/licenses.service';
import { LicenseRequestResponseDto, LicenseRequestResultDto, toOrderDto } from './dto/order.dto';
import { OrdersService } from './orders.service';

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
   * Issues a license to the signed-in user. `trial`: duration and devices from the test-license settings
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
