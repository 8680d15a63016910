import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { ListOrdersQueryDto } from './dto/create-order.dto';
import { AdminOrderListResponseDto, OrderStatisticsResponseDto, PaymentProviderStatusResponseDto, toAdminOrderDto } from './dto/order.dto';
import { PAYMENT_PROVIDER, PaymentProvider, SandboxPaymentProvider } from './payment-provider';
import { OrdersService } from './orders.service';
import { AdminOnly } from '../../common/admin-only.decorator';

@ApiTags('orders')
@AdminOnly()
@Controller('admin/orders')
export class AdminOrdersController {
  constructor(
    private readonly orders: OrdersService,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
  ) {}

  /** Every order: search over user_email and product_name, filter by status, sort created_at, amount or status (default created_at desc, 25 per page). */
  @Get()
  async listAdminOrders(@Query() query: ListOrdersQueryDto): Promise<AdminOrderListResponseDto> {
    const { rows, licenses, total, page, limit } = await this.orders.list(query);
    return {
      success: true,
      data: rows.map((order) => toAdminOrderDto(order, licenses.get(order.id) ?? null)),
      meta: pageMeta(total, page, limit),
    };
  }

  /** Order counts by outcome and paid revenue. */
  @Get('statistics/summary')
  async getOrderStatistics(): Promise<OrderStatisticsResponseDto> {
    return { success: true, data: await this.orders.statistics() };
  }

  /** Which payment provider processes orders, and whether it is the sandbox (no money moves). */
  @Get('payment-provider')
  getPaymentProvider(): PaymentProviderStatusResponseDto {
    return { success: true, data: { name: this.payments.name, sandbox: this.payments instanceof SandboxPaymentProvider } };
  }
}
