import { HttpStatus, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ApiError } from '../../common/api-error';
import type { AuthUser } from '../../common/current-user.decorator';
import { Page } from '../../common/pagination';
import { ListTotals } from '../../common/list-totals';
import { Cache } from '../../common/cache';
import { LicenseProductsService } from '../licenses/license-products.service';
import type { LicenseEntity } from '../licenses/licenses.service';
import { LicensesService } from '../licenses/licenses.service';
import { SettingsService } from '../settings/settings.service';
import { ListOrdersQueryDto } from './dto/create-order.dto';
import { OrderStatisticsDto, fromCents } from './dto/order.dto';
import { OrderEntity, OrderStatus } from './order.entity';
import { OrdersRepository } from './orders.repository';
import { PAYMENT_PROVIDER, PaymentProvider, PaymentResult } from './payment-provider';
import { MAX_LENGTH } from '../../database/column-lengths';

export interface OrderRequest {
  product_name: string;
  devices?: number;
  months?: number;
}

/** How the request names devices and months, so errors point at the caller's fields (POST /api/licenses says max_activations, duration_months). */
export interface OrderFieldNames {
  devices: string;
  months: string;
}

export type OrderPage = Page<OrderEntity> & { licenses: Map<number, LicenseEntity> };

/** A claim on an order left in processing this long (a crashed attempt) may be taken over by a retry. */
const STALE_CLAIM_MS = 5 * 60 * 1000;
/** How long a concurrent retry waits for the attempt that holds the claim. */
const WAIT_FOR_CLAIM_MS = 10_000;
const POLL_MS = 50;

@Injectable()
export class OrdersService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Orders');

  constructor(
    private readonly orders: OrdersRepository,
    @Inject(PAYMENT_PROVIDER) private readonly payments: PaymentProvider,
    private readonly settings: SettingsService,
    private readonly licenses: LicensesService,
    private readonly products: LicenseProductsService,
  ) {}

  /** Why no one may buy now (null: they may); create refuses with the same. */
  async purchaseRefusal(): Promise<ApiError | null> {
    const { features } = await this.settings.getAll();
    return features.purchase_license_enabled ? null : ApiError.forbidden('Purchasing licenses is currently not available.');
  }

  /**
   * Creates a pending order. Devices and months are checked against the pricing settings and the price is
   * devices × months × price_per_device in cents, whatever the client thinks it costs.
   */
  async create(
    user: AuthUser,
    request: OrderRequest,
    fields: OrderFieldNames = { devices: 'devices', months: 'months' },
  ): Promise<OrderEntity> {
    const refusal = await this.purchaseRefusal();
    if (refusal) throw refusal;
    const { pricing } = await this.settings.getAll();
    const devices = request.devices ?? 1;
    const months = request.months ?? 1;
    const errors: Record<string, string[]> = {};
    if (devices < 1 || devices > pricing.max_devices)
      errors[fields.devices] = [`Number of devices must be from 1 to ${pricing.max_devices}`];
    if (months < pricing.min_duration_months || months > pricing.max_duration_months) {
      errors[fields.months] = [`Duration must be from ${pricing.min_duration_months} to ${pricing.max_duration_months} months`];
    }
    const messages = Object.values(errors);
    if (messages.length) throw ApiError.badRequest(messages[0][0], errors);
    await this.products.assertClientProduct(request.product_name);

    this.changed();
    const id = await this.orders.insert({
      user_id: user.id,
      user_email: user.email,
      product_name: request.product_name,
      devices,
      months,
      unit_price_cents: pricing.price_per_device_cents,
      amount_cents: devices * months * pricing.price_per_device_cents,
      currency: pricing.currency,
      status: 'pending',
      payment_provider: this.payments.name,
    });
    return this.orders.get(id);
  }

  /**
   * Charges an order once and issues its license. Idempotent: a retry of a paid order returns the same license;
   * concurrent calls race for one conditional UPDATE (pending → processing), the losers wait for the winner's outcome.
   */
  async processPayment(orderId: number, user: AuthUser): Promise<{ order: OrderEntity; license: LicenseEntity }> {
    const order = await this.getOwn(orderId, user);
    if (order.status === 'paid') return this.paidResult(order);

    const claimed = await this.orders.claim(orderId, new Date(Date.now() - STALE_CLAIM_MS));
    this.changed();
    if (!claimed) return this.waitForOutcome(orderId);

    let outcome: PaymentResult;
    try {
      outcome = await this.payments.charge({
        orderId: order.id,
        amountCents: order.amount_cents,
        currency: order.currency,
        description: `${order.product_name}: ${order.devices} device(s) × ${order.months} month(s)`,
        customerEmail: order.user_email,
        idempotencyKey: `order-${order.id}`,
      });
    } catch (error) {
      this.logger.error(`Payment provider ${this.payments.name} failed for order ${order.id}: ${(error as Error).message}`);
      outcome = { status: 'declined', reason: 'The payment could not be processed. Please try again.' };
    }

    if (outcome.status === 'declined') {
      await this.orders.settle(order.id, { status: 'failed', failure_reason: outcome.reason.slice(0, MAX_LENGTH.paymentFailure) });
      this.changed();
      throw new ApiError(HttpStatus.PAYMENT_REQUIRED, `Payment declined: ${outcome.reason}`);
    }
    // The license first: its unique order_id makes a second license for this order impossible, even after a crash here.
    const license = await this.licenses.issueForOrder({
      order_id: order.id,
      user_id: order.user_id,
      user_email: order.user_email,
      product_name: order.product_name,
      devices: order.devices,
      months: order.months,
    });
    await this.orders.settle(order.id, {
      status: 'paid',
      paid_at: new Date(),
      payment_reference: outcome.reference.slice(0, MAX_LENGTH.paymentReference),
    });
    this.changed();
    return { order: await this.orders.get(order.id), license };
  }

  /** Creates the order and pays it in one step (a paid license request). */
  async purchase(user: AuthUser, request: OrderRequest, fields?: OrderFieldNames): Promise<{ order: OrderEntity; license: LicenseEntity }> {
    const order = await this.create(user, request, fields);
    return this.processPayment(order.id, user);
  }

  async listForUser(user: AuthUser, page: number, limit: number): Promise<OrderPage> {
    return this.withLicenses(await this.orders.pageForUser(user.id, page, limit));
  }

  /** The admin list (see OrdersRepository.pageForAdmin), with the licenses of its orders. */
  async list(query: ListOrdersQueryDto): Promise<OrderPage> {
    return this.withLicenses(await this.orders.pageForAdmin(query, this.totals));
  }

  /** Kept for a minute and recounted in the background; an order made or paid here counts anew. */
  async statistics(): Promise<OrderStatisticsDto> {
    const { currency } = await this.settings.get('pricing');
    return this.figures.get(currency, () => this.countStatistics(currency));
  }

  /** The admin list's totals and the statistics; dropped when an order is made or changes here. */
  private readonly totals = new ListTotals();
  private readonly figures = new Cache<OrderStatisticsDto>({ max: 16, ttlMs: 60_000, staleWhileRevalidate: true });

  private changed(): void {
    this.totals.clear();
    this.figures.clear();
  }

  /** Counts the statistics once at start, in the background, so the first admin to open them does not wait for the count. */
  onApplicationBootstrap(): void {
    setTimeout(() => void this.statistics().catch(() => undefined), 0);
  }

  /** A page of orders with the licenses that fulfil them. */
  private async withLicenses(found: Page<OrderEntity>): Promise<OrderPage> {
    return { ...found, licenses: await this.licenses.findByOrderIds(found.rows.map((order) => order.id)) };
  }

  private async countStatistics(currency: string): Promise<OrderStatisticsDto> {
    const byStatus = await this.orders.countByStatus();
    const count = (status: OrderStatus) => byStatus.find((row) => row.status === status)?.count ?? 0;
    const revenue = await this.orders.paidByCurrency();
    const recentCents = await this.orders.paidCentsSince(currency, new Date(Date.now() - 30 * 24 * 3600 * 1000));
    const totalCents = revenue.find((row) => row.currency === currency)?.cents ?? 0;
    const paidInCurrency = totalCents > 0 ? await this.orders.countPaid(currency) : 0;
    return {
      total_orders: byStatus.reduce((sum, row) => sum + row.count, 0),
      paid_orders: count('paid'),
      pending_orders: count('pending') + count('processing'),
      failed_orders: count('failed'),
      revenue_total: fromCents(totalCents),
      currency,
      revenue_by_currency: revenue.map((row) => ({ currency: row.currency, amount: fromCents(row.cents) })),
      revenue_last_30_days: fromCents(recentCents),
      average_order_value: paidInCurrency ? Math.round(totalCents / paidInCurrency) / 100 : 0,
      devices_sold: revenue.reduce((sum, row) => sum + row.devices, 0),
    };
  }

  async licenseFor(orderId: number): Promise<LicenseEntity | null> {
    return (await this.licenses.findByOrderIds([orderId])).get(orderId) ?? null;
  }

  /** The caller's order; someone else's gets the same 404 as a missing one. */
  private async getOwn(orderId: number, user: AuthUser): Promise<OrderEntity> {
    const order = await this.orders.findById(orderId);
    if (!order || order.user_id !== user.id) throw ApiError.notFound('Order not found');
    return order;
  }

  private async paidResult(order: OrderEntity): Promise<{ order: OrderEntity; license: LicenseEntity }> {
    const license = await this.licenseFor(order.id);
    if (!license) throw ApiError.conflict('This order is paid but its license is not issued yet. Please try again.');
    return { order, license };
  }

  /** Another call holds the claim: wait until it has finished, then answer as it did. */
  private async waitForOutcome(orderId: number): Promise<{ order: OrderEntity; license: LicenseEntity }> {
    const deadline = Date.now() + WAIT_FOR_CLAIM_MS;
    for (;;) {
      const order = await this.orders.get(orderId);
      if (order.status === 'paid') return this.paidResult(order);
      if (order.status === 'failed')
        throw new ApiError(HttpStatus.PAYMENT_REQUIRED, `Payment declined: ${order.failure_reason ?? 'unknown reason'}`);
      if (Date.now() > deadline || order.status === 'pending') {
        throw ApiError.conflict('A payment for this order is being processed. Please try again shortly.');
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
