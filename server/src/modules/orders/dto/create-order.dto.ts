import { OptionalOneOf } from '../../../common/fields';
import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { ListQueryDto } from '../../../common/list-query.dto';
import { Trim } from '../../../common/transforms';
import { ORDER_STATUSES, OrderStatus } from '../order.entity';
import { MAX_LENGTH } from '../../../database/column-lengths';

/** An order for devices × months of a product; the price is computed on the server from the pricing settings. */
export class CreateOrderDto {
  /** "{app_info.name} v{version}" for an existing version. */
  @Trim()
  @IsString({ message: 'Please select a product' })
  @IsNotEmpty({ message: 'Please select a product' })
  @MaxLength(MAX_LENGTH.productName)
  product_name: string;

  /** Number of devices: 1 to 100, and at most pricing.max_devices (default 1). */
  @IsOptional()
  @IsInt({ message: 'Number of devices must be a whole number' })
  @Min(1, { message: 'Number of devices must be at least 1' })
  @Max(100, { message: 'Number of devices must be at most 100' })
  devices?: number;

  /** Months: pricing.min_duration_months to pricing.max_duration_months (default 1). */
  @IsOptional()
  @IsInt({ message: 'Duration must be a whole number of months' })
  @Min(1, { message: 'Duration must be at least 1 month' })
  @Max(120, { message: 'Duration must be at most 120 months' })
  months?: number;

  /** Ignored: the price is devices × months × pricing.price_per_device, computed on the server. */
  @ApiProperty({ required: false, type: Number, description: 'Ignored: the price is computed on the server.' })
  @IsOptional()
  @Allow()
  price?: unknown;
}

export const ORDER_SORT_KEYS = ['created_at', 'amount', 'status'] as const;
export type OrderSortKey = (typeof ORDER_SORT_KEYS)[number];

/** `search` looks in user_email and product_name; default order created_at desc, 25 per page. */
export class ListOrdersQueryDto extends ListQueryDto {
  @OptionalOneOf(ORDER_STATUSES, { enumName: 'OrderStatus' })
  status?: OrderStatus;

  @OptionalOneOf(ORDER_SORT_KEYS, { default: 'created_at' })
  sort?: OrderSortKey;
}
