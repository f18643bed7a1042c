import {
  CANCEL_REFUSED_MESSAGE,
  ERROR_CODES,
  type HttpError,
  isHttpError,
  LIST_LIMIT_MAX,
  orderDetailSchema,
} from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE } from '../src/catalogue.js';
import { SEED_ORDER_COUNT } from '../src/store/seed.js';
import { orderFor, V1_LINE, V2_LINE, VERSIONS } from './helpers/orders.js';
import { startTestApi, type TestApi } from './helpers/sample-api.js';

async function httpError(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isHttpError(error)) throw new Error(`Expected an HttpError, got ${String(error)}`);
  return error;
}

describe.each(VERSIONS)('the sample API in %s', (version) => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
  });
  afterAll(() => t.close());

  const client = () => t.client(version);
  const createAndWait = async (overrides: Record<string, unknown> = {}) => {
    const { uuid } = await client().createOrder(orderFor(version, overrides) as never);
    return client().waitForOrder(uuid, { timeoutMs: 5_000 });
  };

  describe('GET /orders', () => {
    it('lists the seed orders newest first with the total count', async () => {
      const page = await client().listOrders();
      expect(page.count).toBe(SEED_ORDER_COUNT);
      expect(page.orders).toHaveLength(SEED_ORDER_COUNT);
      const dates = page.orders.map((order) => Date.parse(order.date));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    });

    it('pages with limit and offset without losing or repeating an order', async () => {
      const all = await client().listOrders({ limit: LIST_LIMIT_MAX });
      const first = await client().listOrders({ limit: 5, offset: 0 });
      const second = await client().listOrders({ limit: 5, offset: 5 });
      expect(first.count).toBe(all.count);
      expect([...first.orders, ...second.orders].map((order) => order.id)).toEqual(
        all.orders.slice(0, 10).map((order) => order.id),
      );
    });

    it('answers an empty page with the true count past the end', async () => {
      const page = await client().listOrders({ limit: 10, offset: 500 });
      expect(page.orders).toEqual([]);
      expect(page.count).toBeGreaterThanOrEqual(SEED_ORDER_COUNT);
    });

    it('filters on one order status', async () => {
      for (const status of ['in-progress', 'completed', 'cancelled', 'unknown'] as const) {
        const page = await client().listOrders({ status });
        expect(page.orders.length).toBeGreaterThan(0);
        expect(page.orders.every((order) => order.status === status)).toBe(true);
        expect(page.count).toBe(page.orders.length);
      }
    });
  });

  describe('GET /orders/{id}', () => {
    it('reads an order by numeric id and by uuid alike', async () => {
      const withUuid = (await client().listOrders()).orders.find((order) => order.uuid !== null);
      if (!withUuid?.uuid) throw new Error('seed data has orders with a uuid');
      const byId = await client().getOrder(withUuid.id);
      const byUuid = await client().getOrder(withUuid.uuid.toUpperCase());
      expect(byUuid).toEqual(byId);
      expect(byId.id).toBe(withUuid.id);
    });

    it('answers 404 "Order not found" for an unknown order', async () => {
      const error = await httpError(client().getOrder(999_999_999));
      expect(error.status).toBe(404);
      expect(error.vendorMessage).toBe('Order not found');
    });
  });

  describe('POST /orders', () => {
    it(`creates an order from a ${version} line and reads it back after processing`, async () => {
      const order = await createAndWait({ reference: 'Route test', poNumber: 'PO-1' });
      expect(orderDetailSchema.parse(order)).toEqual(order);
      expect(order.status).toBe('in-progress');
      expect(order.reference).toBe('Route test');
      expect(order.poNumber).toBe('PO-1');
      const product = CATALOGUE.find((item) =>
        version === 'v1' ? item.productCode === V1_LINE.productCode : item.sku === V2_LINE.sku,
      );
      expect(order.lines[0]?.productCode).toBe(product?.productCode);
      expect(order.lines[0]?.status).toBe('processing');
      expect(order.total).toBeGreaterThan(0);
    });

    it('creates a test order', async () => {
      const order = await createAndWait({ testOrder: true });
      expect(order.uuid).not.toBeNull();
    });

    it('keeps a line externalId and lists the new order first', async () => {
      const line =
        version === 'v1' ? { ...V1_LINE, externalId: 'crm-1' } : { ...V2_LINE, externalId: 'crm-1' };
      const order = await createAndWait({ orderLines: [line] });
      expect(order.lines[0]?.externalId).toBe('crm-1');
      const page = await client().listOrders({ limit: 1 });
      expect(page.orders[0]?.id).toBe(order.id);
    });
  });

  describe.each(['updateOrder', 'updateOrderWithPost'] as const)('%s', (operation) => {
    it('changes the reference and answers the updated order', async () => {
      const order = await createAndWait();
      const updated = orderDetailSchema.parse(
        await client()[operation](order.id, { reference: `Changed by ${operation}` }),
      );
      expect(updated.reference).toBe(`Changed by ${operation}`);
      expect((await client().getOrder(order.id)).reference).toBe(`Changed by ${operation}`);
    });

    it('updates an order addressed by uuid', async () => {
      const order = await createAndWait();
      const updated = orderDetailSchema.parse(
        await client()[operation](order.uuid as string, { poNumber: 'PO-by-uuid' }),
      );
      expect(updated.id).toBe(order.id);
      expect(updated.poNumber).toBe('PO-by-uuid');
    });

    it('ignores a field that cannot change, as the docs say, and answers the order', async () => {
      const order = await createAndWait();
      const answer = await client()[operation](order.id, {
        invoiceAddress: { ...(orderFor(version).invoiceAddress as object), city: 'Elsewhere' },
        reference: 'Changed',
      } as never);
      expect(answer).toMatchObject({ id: order.id, reference: 'Changed' });
    });

    it('answers 404 for an unknown order', async () => {
      const error = await httpError(client()[operation](999_999_998, { reference: 'x' }));
      expect(error.status).toBe(404);
    });
  });

  describe('DELETE /orders/{id}', () => {
    it('cancels an order with a reason', async () => {
      const order = await createAndWait();
      expect(await client().cancelOrder(order.id, 'Ordered twice')).toEqual({ success: true });
      const cancelled = await client().getOrder(order.id);
      expect(cancelled.status).toBe('cancelled');
      expect(cancelled.lines.every((line) => line.status === 'cancelled')).toBe(true);
    });

    it('refuses to cancel a seed order in production with 500 "Cancel order failed"', async () => {
      const page = await client().listOrders({ status: 'in-progress' });
      const details = await Promise.all(page.orders.map((order) => client().getOrder(order.id)));
      const inProduction = details.find((order) =>
        order.lines.some((line) => line.status === 'in-production'),
      );
      if (!inProduction) throw new Error('seed data has an order in production');
      const error = await httpError(client().cancelOrder(inProduction.id, 'Too late?'));
      expect(error.code).toBe(ERROR_CODES.http);
      expect(error.status).toBe(500);
      expect(error.vendorMessage).toBe(CANCEL_REFUSED_MESSAGE);
    });

    it('answers 404 for an unknown order', async () => {
      const error = await httpError(client().cancelOrder(999_999_997, 'Unknown'));
      expect(error.status).toBe(404);
    });
  });
});

describe('the sample API per version', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
  });
  afterAll(() => t.close());

  it('accepts the v1-only pick-up delivery methods 6, 18 and 19 in v1', async () => {
    for (const deliveryMethod of [6, 18, 19]) {
      const { uuid } = await t.client('v1').createOrder(orderFor('v1', { deliveryMethod }) as never);
      const order = await t.client('v1').waitForOrder(uuid, { timeoutMs: 5_000 });
      expect(order.lines[0]?.deliveryMethod).toMatch(/pick-up/i);
    }
  });

  it('refuses the v1-only delivery methods in v2 with 400', async () => {
    for (const deliveryMethod of [6, 18, 19]) {
      const error = await t
        .client('v2')
        .send('createOrder', { body: orderFor('v2', { deliveryMethod }) }, { validate: false })
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      expect(isHttpError(error) && error.status).toBe(400);
    }
  });

  it('accepts a quote order in v2', async () => {
    const body = orderFor('v2', {
      quoteId: 'Q-2024-118',
      orderLines: [{ quoteLineItemId: 'QL-7', files: [{ url: 'https://files.example.com/q.pdf' }] }],
    });
    const { uuid } = await t.client('v2').createOrder(body as never);
    const order = await t.client('v2').waitForOrder(uuid, { timeoutMs: 5_000 });
    expect(order.lines[0]?.productCode).toBe('quote-QL-7');
  });

  it('takes the quantity of a v2 line from its quantity attribute', async () => {
    const line = { ...V2_LINE, attributes: [{ attribute: 'quantity', value: '1000' }] };
    const { uuid } = await t.client('v2').createOrder(orderFor('v2', { orderLines: [line] }) as never);
    const order = await t.client('v2').waitForOrder(uuid, { timeoutMs: 5_000 });
    expect(order.lines[0]?.quantity).toBe(1000);
  });
});
