import { LicenseEntity } from '../src/modules/licenses/license.entity';
import { OrderEntity } from '../src/modules/orders/order.entity';
import { PAYMENT_PROVIDER, PaymentProvider } from '../src/modules/orders/payment-provider';
import { ensureVersion, PRODUCT } from './support/licensing';
import { bearer, startTestApp, TestApp } from './support/test-app';

describe(`orders and payments (${process.env.TEST_DB})`, () => {
  let t: TestApp;
  let admin: string;
  let alice: { token: string; id: number; email: string };
  let bob: { token: string; id: number; email: string };
  let provider: PaymentProvider;

  const createOrder = (token: string, body: Record<string, unknown>) =>
    t
      .api()
      .post('/api/orders')
      .set(bearer(token))
      .send({ product_name: PRODUCT, ...body });
  const pay = (token: string, id: number) => t.api().post(`/api/orders/${id}/process-payment`).set(bearer(token));

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.adminToken();
    alice = await t.signUpClient();
    bob = await t.signUpClient();
    await ensureVersion(t);
    provider = t.app.get<PaymentProvider>(PAYMENT_PROVIDER);
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    expect(t.statuses.filter((status) => status >= 500)).toEqual([]);
    await t.close();
  });

  it('uses the sandbox provider by default', () => {
    expect(provider.name).toBe('sandbox');
  });

  it('creates a pending order priced by the server, whatever price is sent', async () => {
    const response = await createOrder(alice.token, { devices: 4, months: 3, price: 1 }).expect(201);
    expect(response.body.data).toMatchObject({
      status: 'pending',
      devices: 4,
      months: 3,
      unit_price: 10,
      amount: 120,
      currency: 'USD',
      license_id: null,
    });
    await createOrder(alice.token, { devices: 101 }).expect(400);
    await createOrder(alice.token, { months: 13 }).expect(400);
    await createOrder(alice.token, { devices: 0 }).expect(400);
  });

  it('charges an order exactly once under 10 simultaneous payment calls, and answers all of them with the one license', async () => {
    const charge = jest.spyOn(provider, 'charge');
    const order = (await createOrder(alice.token, { devices: 2, months: 1 }).expect(201)).body.data;
    const responses = await Promise.all(Array.from({ length: 10 }, () => pay(alice.token, order.id)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(200));
    const licenseIds = new Set(responses.map((r) => r.body.data.license.id));
    expect(licenseIds.size).toBe(1);
    expect(charge).toHaveBeenCalledTimes(1);
    expect(await t.dataSource.getRepository(LicenseEntity).countBy({ order_id: order.id })).toBe(1);
    const stored = await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ id: order.id });
    expect(stored).toMatchObject({ status: 'paid', amount_cents: 2000, payment_provider: 'sandbox' });
    expect(stored.payment_reference).toBe(`sandbox-order-${order.id}`);

    // A later retry is answered from the paid order, without charging again.
    const retry = await pay(alice.token, order.id).expect(200);
    expect(retry.body.data.license.id).toBe([...licenseIds][0]);
    expect(retry.body.data.order).toMatchObject({ status: 'paid', license_id: [...licenseIds][0] });
    expect(charge).toHaveBeenCalledTimes(1);
  });

  it('marks a declined payment failed, issues nothing, and lets the buyer try again', async () => {
    const order = (await createOrder(alice.token, { devices: 1, months: 1 }).expect(201)).body.data;
    jest.spyOn(provider, 'charge').mockResolvedValueOnce({ status: 'declined', reason: 'card declined' });
    const declined = await pay(alice.token, order.id).expect(402);
    expect(declined.body.message).toBe('Payment declined: card declined');
    expect(await t.dataSource.getRepository(OrderEntity).findOneByOrFail({ id: order.id })).toMatchObject({
      status: 'failed',
      failure_reason: 'card declined',
    });
    expect(await t.dataSource.getRepository(LicenseEntity).countBy({ order_id: order.id })).toBe(0);
    const retried = await pay(alice.token, order.id).expect(200);
    expect(retried.body.data.order.status).toBe('paid');
  });

  it('keeps orders to their buyer: others get 404 for every guessed id', async () => {
    const all = await t.dataSource.getRepository(OrderEntity).find();
    for (const order of all) await pay(bob.token, order.id).expect(404);
    await pay(bob.token, 999_999).expect(404);
    const bobs = (await t.api().get('/api/orders').set(bearer(bob.token)).expect(200)).body;
    expect(bobs.data).toEqual([]);
    const alices = (await t.api().get('/api/orders').set(bearer(alice.token)).expect(200)).body;
    expect(alices.meta.total).toBe(all.filter((o) => o.user_id === alice.id).length);
    expect(alices.data.find((o: { status: string }) => o.status === 'paid')).toMatchObject({ license_key: expect.stringMatching(/^SH-/) });
  });

  it('lists every order for admins, with filters, and sums paid revenue', async () => {
    await t
      .api()
      .post('/api/licenses')
      .set(bearer(bob.token))
      .send({ product_name: PRODUCT, license_type: 'paid', max_activations: 5, duration_months: 2 })
      .expect(201);
    const all = (await t.api().get('/api/admin/orders').set(bearer(admin)).expect(200)).body;
    expect(all.meta).toMatchObject({ page: 1, limit: 25, total: 4 });
    expect(all.data[0]).toMatchObject({ user_email: bob.email, amount: 100, status: 'paid' });
    const pending = (await t.api().get('/api/admin/orders').query({ status: 'pending' }).set(bearer(admin)).expect(200)).body;
    expect(pending.data.map((o: { amount: number }) => o.amount)).toEqual([120]);
    expect((await t.api().get('/api/admin/orders').query({ search: bob.email }).set(bearer(admin)).expect(200)).body.meta.total).toBe(1);
    const byAmount = (await t.api().get('/api/admin/orders').query({ sort: 'amount', order: 'asc' }).set(bearer(admin)).expect(200)).body
      .data;
    expect(byAmount.map((o: { amount: number }) => o.amount)).toEqual([10, 20, 100, 120]);

    const summary = (await t.api().get('/api/admin/orders/statistics/summary').set(bearer(admin)).expect(200)).body.data;
    expect(summary).toMatchObject({
      total_orders: 4,
      paid_orders: 3,
      pending_orders: 1,
      failed_orders: 0,
      revenue_total: 130,
      currency: 'USD',
      revenue_last_30_days: 130,
      devices_sold: 8,
    });
    expect(summary.average_order_value).toBeCloseTo(43.33, 2);
    await t.api().get('/api/admin/orders').set(bearer(alice.token)).expect(403);
  });
});
