import { ApiProperty } from '@nestjs/swagger';
import { LicenseDto } from '../../licenses/dto/license.dto';
import { ORDER_STATUSES, OrderEntity, OrderStatus } from '../order.entity';
import { Envelope, PageOf } from '../../../common/envelope';

/** An order as its buyer sees it; money in the currency's main unit (e.g. 30 for 30 USD). */
export class OrderDto {
  id: number;
  product_name: string;
  devices: number;
  months: number;
  /** Price per device per month when the order was made. */
  unit_price: number;
  /** devices × months × unit_price. */
  amount: number;
  currency: string;
  @ApiProperty({ enum: ORDER_STATUSES, enumName: 'OrderStatus' })
  status: OrderStatus;
  payment_provider: string;
  payment_reference: string | null;
  failure_reason: string | null;
  paid_at: Date | null;
  /** The license this order paid for, once paid. */
  license_id: number | null;
  license_key: string | null;
  created_at: Date;
}

export class AdminOrderDto extends OrderDto {
  user_id: number | null;
  user_email: string;
  updated_at: Date;
}

export class OrderResponseDto extends Envelope(OrderDto, { message: 'optional' }) {}

export class OrderListResponseDto extends PageOf(OrderDto) {}

export class AdminOrderListResponseDto extends PageOf(AdminOrderDto) {}

export class PaymentResultDto {
  order: OrderDto;
  license: LicenseDto;
}

export class PaymentResponseDto extends Envelope(PaymentResultDto, { message: 'required' }) {}

/** The answer to a license request: the license, and for a purchase the paid order. */
export class LicenseRequestResultDto {
  license: LicenseDto;
  order: OrderDto | null;
}

export class LicenseRequestResponseDto extends Envelope(LicenseRequestResultDto, { message: 'required' }) {}

export class RevenueByCurrencyDto {
  currency: string;
  amount: number;
}

export class OrderStatisticsDto {
  total_orders: number;
  paid_orders: number;
  pending_orders: number;
  failed_orders: number;
  /** Paid revenue in the current pricing currency. */
  revenue_total: number;
  currency: string;
  /** Paid revenue per currency (if pricing changed currency over time). */
  revenue_by_currency: RevenueByCurrencyDto[];
  /** Paid revenue of the last 30 days, in the current pricing currency. */
  revenue_last_30_days: number;
  /** revenue_total / paid_orders. */
  average_order_value: number;
  devices_sold: number;
}

export class OrderStatisticsResponseDto extends Envelope(OrderStatisticsDto) {}

export const fromCents = (cents: number) => cents / 100;

export function toOrderDto(order: OrderEntity, license: { id: number; license_key: string } | null): OrderDto {
  return {
    id: order.id,
    product_name: order.product_name,
    devices: order.devices,
    months: order.months,
    unit_price: fromCents(order.unit_price_cents),
    amount: fromCents(order.amount_cents),
    currency: order.currency,
    status: order.status,
    payment_provider: order.payment_provider,
    payment_reference: order.payment_reference,
    failure_reason: order.failure_reason,
    paid_at: order.paid_at,
    license_id: license?.id ?? null,
    license_key: license?.license_key ?? null,
    created_at: order.created_at,
  };
}

export function toAdminOrderDto(order: OrderEntity, license: { id: number; license_key: string } | null): AdminOrderDto {
  return Object.assign(toOrderDto(order, license), { user_id: order.user_id, user_email: order.user_email, updated_at: order.updated_at });
}

export class PaymentProviderStatusDto {
  /** The configured PAYMENT_PROVIDER, e.g. 'sandbox'. */
  name: string;
  /** True when orders are marked paid without charging anyone (the admin shell shows a 'Sandbox payments' badge). */
  sandbox: boolean;
}

export class PaymentProviderStatusResponseDto extends Envelope(PaymentProviderStatusDto) {}
