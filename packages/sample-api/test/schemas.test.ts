import {
  cancelResultSchema,
  ISO_DATE_TIME_PATTERN,
  ORDER_LINE_STATUSES,
  ORDER_STATUSES,
  type OrderDetail,
  orderCreatedSchema,
  orderDetailSchema,
  orderListSchema,
} from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_ORDER_COUNT } from '../src/store/seed.js';
import { orderFor, VERSIONS } from './helpers/orders.js';
import { DEMO, JSON_BODY, OTHER, startTestApi, type TestApi } from './helpers/sample-api.js';

/** Parses with the client's schema and checks nothing was stripped: the answer has no extra fields. */
function expectExactly(schema: { parse(value: unknown): unknown }, json: unknown) {
  expect(schema.parse(json)).toEqual(json);
}

async function allDetails(t: TestApi, credentials = DEMO): Promise<OrderDetail[]> {
  const list = await t.raw({ path: '/api/orders?limit=50', credentials });
  const { orders } = orderListSchema.parse(list.json);
  return Promise.all(
    orders.map(
      async (order) => (await t.raw({ path: `/api/orders/${order.id}`, credentials })).json as OrderDetail,
    ),
  );
}

describe('every answer of the sample API parses with the client schemas', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
  });
  afterAll(() => t.close());

  describe.each(VERSIONS)('in %s', (version) => {
    it.each([
      ['the first page', ''],
      ['a small page', '?limit=3&offset=2'],
      ['a page past the end', '?offset=100'],
      ['a status filter', '?status=cancelled'],
    ])('lists %s as orderListSchema', async (_name, query) => {
      const answer = await t.raw({ path: `/api/orders${query}`, version });
      expect(answer.status).toBe(200);
      expectExactly(orderListSchema, answer.json);
    });

    it.each([DEMO, OTHER])(
      'reads every seed order of $userId by id and uuid as orderDetailSchema',
      async (credentials) => {
        const list = orderListSchema.parse((await t.raw({ path: '/api/orders', version, credentials })).json);
        for (const summary of list.orders) {
          const refs = summary.uuid === null ? [summary.id] : [summary.id, summary.uuid];
          for (const ref of refs) {
            const answer = await t.raw({ path: `/api/orders/${ref}`, version, credentials });
            expect(answer.status).toBe(200);
            expectExactly(orderDetailSchema, answer.json);
          }
        }
      },
    );

    it('answers create, update and cancel with their schemas', async () => {
      const send = (method: string, path: string, body: unknown) =>
        t.raw({ method, path, version, headers: JSON_BODY, body: JSON.stringify(body) });
      const created = await send('POST', '/api/orders', orderFor(version));
      expect(created.status).toBe(201);
      expectExactly(orderCreatedSchema, created.json);
      const { uuid } = created.json as { uuid: string };
      for (const method of ['PUT', 'POST']) {
        const updated = await send(method, `/api/orders/${uuid}`, { reference: method });
        expect(updated.status).toBe(200);
        expectExactly(orderDetailSchema, updated.json);
      }
      const cancelled = await send('DELETE', `/api/orders/${uuid}`, { reason: 'Schema test' });
      expect(cancelled.status).toBe(200);
      expectExactly(cancelResultSchema, cancelled.json);
    });

    it('answers every refusal with a message the client reads', async () => {
      const refusals = await Promise.all([
        t.raw({ path: '/api/orders/424242', version }),
        t.raw({ path: '/api/orders?limit=99', version }),
        t.raw({ path: '/api/orders', version, credentials: false }),
        t.raw({ method: 'PATCH', path: '/api/orders', version }),
        t.raw({ method: 'POST', path: '/api/orders', version, headers: JSON_BODY, body: '{' }),
      ]);
      for (const answer of refusals) {
        expect(answer.status).toBeGreaterThanOrEqual(400);
        expect(answer.json).toMatchObject({ message: expect.any(String) });
      }
    });
  });
});

describe('the sample data of the sample API', () => {
  let t: TestApi;
  let orders: OrderDetail[];
  beforeAll(async () => {
    t = await startTestApi();
    orders = await allDetails(t);
  });
  afterAll(() => t.close());

  const lines = () => orders.flatMap((order) => order.lines);

  it('holds the same orders for every run', async () => {
    const again = await startTestApi();
    try {
      expect(await allDetails(again)).toEqual(orders);
    } finally {
      await again.close();
    }
  });

  it('has every order status and every line status', () => {
    expect(orders).toHaveLength(SEED_ORDER_COUNT);
    expect(new Set(orders.map((order) => order.status))).toEqual(new Set(ORDER_STATUSES));
    expect(new Set(lines().map((line) => line.status))).toEqual(new Set(ORDER_LINE_STATUSES));
  });

  it('has discounts, shipments with track-and-trace URLs, shipped lines without them yet, and string line ids', () => {
    expect(lines().some((line) => line.customerDiscount !== null)).toBe(true);
    const shipments = lines().flatMap((line) => line.shipmentInfo ?? []);
    const urls = shipments.flatMap((shipment) => shipment.trackAndTraceUrl);
    expect(urls.length).toBeGreaterThan(1);
    expect(urls.every((url) => new URL(url).protocol === 'https:')).toBe(true);
    expect(shipments.every((shipment) => typeof shipment.zipCode === 'string')).toBe(true);
    expect(lines().some((line) => line.status === 'shipped' && line.shipmentInfo?.length === 0)).toBe(true);
    expect(lines().some((line) => typeof line.id === 'string' && /^\d+-\d+$/.test(line.id))).toBe(true);
    expect(lines().some((line) => typeof line.id === 'number')).toBe(true);
  });

  it('is shaped as the docs show orders: address ids, date-times, keys the docs leave out', () => {
    expect(orders.some((order) => order.uuid === null)).toBe(true);
    expect(orders.some((order) => order.reference === null)).toBe(true);
    expect(orders.some((order) => order.poNumber === null)).toBe(true);
    expect(orders.every((order) => Number.isInteger(order.deliveryAddress))).toBe(true);
    expect(lines().every((line) => Number.isInteger(line.addressInfo))).toBe(true);
    expect(lines().every((line) => ISO_DATE_TIME_PATTERN.test(line.deliveryDate))).toBe(true);
    expect(lines().some((line) => line.revisedDeliveryDate === null)).toBe(true);
    expect(lines().some((line) => line.revisedDeliveryDate !== null)).toBe(true);
    expect(lines().some((line) => !('shippingCost' in line))).toBe(true);
    expect(lines().some((line) => !('externalId' in line))).toBe(true);
    expect(lines().some((line) => line.externalId === null)).toBe(true);
    expect(lines().some((line) => typeof line.externalId === 'string')).toBe(true);
  });

  it("has orders whose VAT includes shipping, so it differs from the sum of the lines' VAT", () => {
    const shipped = orders.filter((order) => order.lines.some((line) => (line.shippingCost ?? 0) > 0));
    expect(shipped.length).toBeGreaterThan(0);
    for (const order of shipped) {
      const linesVat = order.lines.reduce(
        (sum, line) => sum + line.vatAmount - (line.customerDiscount?.discountTaxAmount ?? 0),
        0,
      );
      expect(order.vatAmount).toBeGreaterThan(linesVat);
    }
  });

  it('gives every credential set its own orders with ids unique across sets', async () => {
    const other = await allDetails(t, OTHER);
    expect(other).toHaveLength(SEED_ORDER_COUNT);
    const ids = [...orders, ...other].map((order) => order.id);
    expect(new Set(ids).size).toBe(ids.length);
    const uuids = [...orders, ...other].flatMap((order) => (order.uuid === null ? [] : [order.uuid]));
    expect(new Set(uuids).size).toBe(uuids.length);
  });

  it('starts empty when seeding is off', async () => {
    const empty = await startTestApi({ seedOrders: false });
    try {
      expect((await empty.raw({ path: '/api/orders' })).json).toEqual({ count: 0, orders: [] });
    } finally {
      await empty.close();
    }
  });
});
