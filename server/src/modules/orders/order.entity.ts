import { Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { CreatedAt, DateTimeColumn, IntColumn, ReferenceColumn, VarcharColumn } from '../../database/columns';
import { UserEntity } from '../users/user.entity';
import { MAX_LENGTH } from '../../database/column-lengths';

export const ORDER_STATUSES = ['pending', 'processing', 'paid', 'failed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** A purchase of devices × months; the price is fixed in cents when the order is made. Its license points back with order_id. */
@Entity('orders')
@Index('IDX_orders_user_id_created_at', ['user_id', 'created_at'])
// The admin list's amount sort and status filter (see the ListIndexes migration).
@Index('IDX_orders_amount_cents', ['amount_cents'])
@Index('IDX_orders_status_created_at', ['status', 'created_at'])
export class OrderEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @ReferenceColumn(() => UserEntity, 'FK_orders_user_id', 'SET NULL')
  user_id: number | null;

  @VarcharColumn(MAX_LENGTH.email, { index: 'IDX_orders_user_email' })
  user_email: string;

  @VarcharColumn(MAX_LENGTH.productName)
  product_name: string;

  @IntColumn()
  devices: number;

  @IntColumn()
  months: number;

  @IntColumn()
  unit_price_cents: number;

  /** devices × months × unit_price_cents. */
  @IntColumn()
  amount_cents: number;

  @VarcharColumn(3)
  currency: string;

  /** Moves pending → processing → paid or failed, each step by a conditional UPDATE. */
  @VarcharColumn(20, { default: 'pending', index: 'IDX_orders_status' })
  status: OrderStatus;

  @VarcharColumn(32)
  payment_provider: string;

  @VarcharColumn(MAX_LENGTH.paymentReference, { nullable: true })
  payment_reference: string | null;

  @VarcharColumn(MAX_LENGTH.paymentFailure, { nullable: true })
  failure_reason: string | null;

  @DateTimeColumn({ nullable: true })
  paid_at: Date | null;

  @CreatedAt('IDX_orders_created_at')
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
