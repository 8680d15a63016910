import { Controller, Inject, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { pageMeta } from '../../common/pagination';
import { ApiGetResponse, pageOf, Reply } from '../../common/response';
import { ListOrdersQueryDto } from './dto/create-order.dto';
import {
  AdminOrderDto,
  AdminOrderListResponseDto,
  OrderStatisticsDto,
  OrderStatisticsResponseDto,
  PaymentProviderStatusDto,
  PaymentProviderStatusResponseDto,
  toAdminOrderDto,
} from './dto/order.dto';
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
  @ApiGetResponse(AdminOrderListResponseDto)
  async listAdminOrders(@Query() query: ListOrdersQueryDto): Promise<Reply<AdminOrderDto[]>> {
    const { rows, licenses, total, page, limit } = await this.orders.list(query);
    return pageOf(
      rows.map((order) => toAdminOrderDto(order, licenses.get(order.id) ?? null)),
      pageMeta(total, page, limit),
    );
  }

  /** Order counts by outcome and paid revenue. */
  @ApiGetResponse(OrderStatisticsResponseDto, 'statistics/summary')
  getOrderStatistics(): Promise<OrderStatisticsDto> {
    return this.orders.statistics();
  }

  /** Which payment provider processes orders, and whether it is the sandbox (no money moves). */
  @ApiGetResponse(PaymentProviderStatusResponseDto, 'payment-provider')
  getPaymentProvider(): PaymentProviderStatusDto {
    return { name: this.payments.name, sandbox: this.payments instanceof SandboxPaymentProvider };
  }
}
