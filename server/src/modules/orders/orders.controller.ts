import { Audit } from '../../common/audit.decorator';
import { Body, Controller, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AuthUser, CurrentUser } from '../../common/current-user.decorator';
import { ListQueryDto } from '../../common/list-query.dto';
import { pageMeta } from '../../common/pagination';
import { ApiEnvelopeResponse, ApiGetResponse, pageOf, Reply } from '../../common/response';
import { toLicenseDto } from '../licenses/dto/license.dto';
import { CreateOrderDto } from './dto/create-order.dto';
import { OrderDto, OrderListResponseDto, OrderResponseDto, PaymentResponseDto, PaymentResultDto, toOrderDto } from './dto/order.dto';
import { OrdersService } from './orders.service';
import { IdParam } from '../../common/id-param';

/** The signed-in client's orders. */
@ApiTags('orders')
@Controller('orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  /** The caller's orders, newest first (default 50 per page). */
  @ApiGetResponse(OrderListResponseDto)
  async listMyOrders(@CurrentUser() user: AuthUser, @Query() query: ListQueryDto): Promise<Reply<OrderDto[]>> {
    const { rows, licenses, total, page, limit } = await this.orders.listForUser(user, query.page ?? 1, query.limit ?? 50);
    return pageOf(
      rows.map((order) => toOrderDto(order, licenses.get(order.id) ?? null)),
      pageMeta(total, page, limit),
    );
  }

  /** Creates a pending order for devices × months; the amount is computed on the server from the pricing settings. */
  @Post()
  @Audit('order.create', 'Create order', 'order')
  @ApiEnvelopeResponse(OrderResponseDto, { status: 201, message: 'Order created' })
  async createOrder(@CurrentUser() user: AuthUser, @Body() dto: CreateOrderDto): Promise<OrderDto> {
    return toOrderDto(await this.orders.create(user, dto), null);
  }

  /**
   * Pays an order through the configured payment provider and issues its license. Safe to retry: an order
   * is charged at most once, and a paid order answers with its license again.
   */
  @Post(':id/process-payment')
  @Audit('order.pay', 'Pay order', 'order')
  @ApiEnvelopeResponse(PaymentResponseDto, { message: 'Payment processed' })
  async processOrderPayment(@IdParam() id: number, @CurrentUser() user: AuthUser): Promise<PaymentResultDto> {
    const { order, license } = await this.orders.processPayment(id, user);
    return { order: toOrderDto(order, license), license: toLicenseDto(license) };
  }
}
