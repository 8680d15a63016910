import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, Repository } from 'typeorm';
import type { ListTotals } from '../../common/list-totals';
import { Page } from '../../common/pagination';
import { OffLoopReads } from '../../database/off-loop-reads';
import { engineOf, readPage, readPageByIds, sortColumn, startsWith } from '../../database/pages';
import { ListOrdersQueryDto } from './dto/create-order.dto';
import { OrderEntity, OrderStatus } from './order.entity';
import { EntityRows } from '../../database/entity-rows';

export type NewOrderRow = Pick<
  OrderEntity,
  | 'user_id'
  | 'user_email'
  | 'product_name'
  | 'devices'
  | 'months'
  | 'unit_price_cents'
  | 'amount_cents'
  | 'currency'
  | 'status'
  | 'payment_provider'
>;

const SORT_COLUMNS = { created_at: 'o.created_at', amount: 'o.amount_cents', status: 'o.status' } as const;

/** The orders table. */
@Injectable()
export class OrdersRepository {
  constructor(@InjectRepository(OrderEntity) private readonly orders: Repository<OrderEntity>) {}

  findById(id: number): Promise<OrderEntity | null> {
    return this.orders.findOneBy({ id });
  }

  /** One that must exist (it was just written). */
  get(id: number): Promise<OrderEntity> {
    return this.orders.findOneByOrFail({ id });
  }

  /** Inserts an order; returns its id. */
  async insert(row: NewOrderRow): Promise<number> {
    const result = await this.orders.insert(row);
    return result.identifiers[0].id as number;
  }

  /**
   * Takes an order for payment (pending or failed → processing, or processing since before `staleBefore`): one
   * conditional UPDATE, so of concurrent attempts one wins. Whether this one did.
   */
  async claim(id: number, staleBefore: Date): Promise<boolean> {
    const result = await this.orders
      .createQueryBuilder()
      .update()
      .set({ status: 'processing', failure_reason: null })
      .where('id = :id AND (status IN (:...open) OR (status = :processing AND updated_at < :stale))', {
        id,
        open: ['pending', 'failed'],
        processing: 'processing',
        stale: staleBefore,
      })
      .execute();
    return result.affected === 1;
  }

  /** The outcome of a claimed payment, stored while the order is still processing. */
  async settle(id: number, changes: Partial<OrderEntity>): Promise<void> {
    await this.orders.update({ id, status: 'processing' }, changes);
  }

  /** A user's orders, newest first. */
  pageForUser(userId: number, page: number, limit: number): Promise<Page<OrderEntity>> {
    const qb = this.orders.createQueryBuilder('o').where('o.user_id = :userId', { userId });
    return readPage(qb, { page, limit }, { by: 'o.created_at', id: 'o.id' });
  }

  /**
   * The admin list: every sort and filter has an index; the search is a prefix of the e-mail (a term with @) or of
   * the e-mail or product name (other text); totals through `totals` (exact up to EXACT_TOTAL_CAP).
   */
  pageForAdmin(query: ListOrdersQueryDto, totals: ListTotals): Promise<Page<OrderEntity>> {
    const qb = this.orders.createQueryBuilder('o');
    const term = query.search?.trim();
    if (term) {
      const engine = engineOf(qb);
      const [email, emailParams] = startsWith(engine, 'o.user_email', 'email', term.toLowerCase());
      if (term.includes('@')) qb.andWhere(email, emailParams);
      else
        qb.andWhere(
          new Brackets((where) => where.where(email, emailParams).orWhere(...startsWith(engine, 'o.product_name', 'product', term))),
        );
    }
    if (query.status) qb.andWhere('o.status = :status', { status: query.status });
    return readPageByIds(
      qb,
      query,
      { by: sortColumn(SORT_COLUMNS, query.sort, 'created_at'), id: 'o.id', fixed: ['o.created_at'] },
      { cache: totals, key: JSON.stringify([term ?? '', query.status ?? '']) },
      (ids) => EntityRows.of(this.orders).byIds(ids),
    );
  }

  async countByStatus(): Promise<Array<{ status: OrderStatus; count: number }>> {
    const rows = await this.reads().rows<{ status: OrderStatus; count: string | number }>(
      this.orders.createQueryBuilder('o').select('o.status', 'status').addSelect('COUNT(*)', 'count').groupBy('o.status'),
    );
    return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  }

  /** Paid orders per currency: their cents and devices. */
  async paidByCurrency(): Promise<Array<{ currency: string; cents: number; devices: number }>> {
    const rows = await this.reads().rows<{ currency: string; cents: string | number; devices: string | number }>(
      this.orders
        .createQueryBuilder('o')
        .select('o.currency', 'currency')
        .addSelect('SUM(o.amount_cents)', 'cents')
        .addSelect('SUM(o.devices)', 'devices')
        .where('o.status = :paid', { paid: 'paid' })
        .groupBy('o.currency'),
    );
    return rows.map((row) => ({ currency: row.currency, cents: Number(row.cents), devices: Number(row.devices) }));
  }

  /** The cents of orders in `currency` paid since `since`. */
  async paidCentsSince(currency: string, since: Date): Promise<number> {
    const [row] = await this.reads().rows<{ cents: string | number | null }>(
      this.orders
        .createQueryBuilder('o')
        .select('SUM(o.amount_cents)', 'cents')
        .where('o.status = :paid AND o.currency = :currency AND o.paid_at >= :since', { paid: 'paid', currency, since }),
    );
    return Number(row?.cents ?? 0);
  }

  countPaid(currency: string): Promise<number> {
    return this.reads().count(
      this.orders.createQueryBuilder('o').where('o.status = :paid AND o.currency = :currency', { paid: 'paid', currency }),
    );
  }

  /** The figures aggregate over every order: off the event loop on SQLite. */
  private reads(): OffLoopReads {
    return OffLoopReads.for(this.orders.manager.connection);
  }
}
