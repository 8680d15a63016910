import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
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

  @Column({ type: 'int', nullable: true })
  user_id: number | null;

  @ManyToOne(() => UserEntity, { onDelete: 'SET NULL', nullable: true })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'FK_orders_user_id' })
  user?: UserEntity | null;

  @Index('IDX_orders_user_email')
  @Column({ type: 'varchar', length: MAX_LENGTH.email })
  user_email: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.productName })
  product_name: string;

  @Column({ type: 'int' })
  devices: number;

  @Column({ type: 'int' })
  months: number;

  @Column({ type: 'int' })
  unit_price_cents: number;

  /** devices × months × unit_price_cents. */
  @Column({ type: 'int' })
  amount_cents: number;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** Moves pending → processing → paid or failed, each step by a conditional UPDATE. */
  @Index('IDX_orders_status')
  @Column({ type: 'varchar', length: 20, default: 'pending' })
  status: OrderStatus;

  @Column({ type: 'varchar', length: 32 })
  payment_provider: string;

  @Column({ type: 'varchar', length: MAX_LENGTH.paymentReference, nullable: true })
  payment_reference: string | null;

  @Column({ type: 'varchar', length: MAX_LENGTH.paymentFailure, nullable: true })
  failure_reason: string | null;

  @Column({ type: 'datetime', precision: 3, nullable: true })
  paid_at: Date | null;

  @Index('IDX_orders_created_at')
  @CreateDateColumn()
  created_at: Date;

  @UpdateDateColumn()
  updated_at: Date;
}
