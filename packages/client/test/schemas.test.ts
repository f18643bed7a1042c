import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  cancelOrderSchema,
  countrySchema,
  createOrderV1Schema,
  createOrderV2Schema,
  expandPath,
  formatPath,
  listQuerySchema,
  OPERATION_NAMES,
  operations,
  orderDetailSchema,
  orderListSchema,
  orderRefSchema,
  pathPattern,
  SHIPPING_COUNTRIES,
  toFieldIssues,
  updateOrderV1Schema,
  updateOrderV2Schema,
  vendorMessageOf,
} from '../src/index.js';
import { createBodies, ORDER_UUID, orderDetail, orderDetailJson, orderSummary } from './support/fixtures.js';

describe('the operations table', () => {
  it('the operations table names each order operation with its method and path', () => {
    expect(OPERATION_NAMES.map((name) => [name, operations[name].method, operations[name].path])).toEqual([
      ['listOrders', 'GET', '/orders'],
      ['getOrder', 'GET', '/orders/{id}'],
      ['createOrder', 'POST', '/orders'],
      ['updateOrder', 'PUT', '/orders/{id}'],
      ['updateOrderWithPost', 'POST', '/orders/{id}'],
      ['cancelOrder', 'DELETE', '/orders/{id}'],
    ]);
  });

  it('the operations table marks only the GETs idempotent, so only they are retried', () => {
    for (const name of OPERATION_NAMES) {
      expect(operations[name].idempotent, name).toBe(operations[name].method === 'GET');
    }
  });

  it('the operations table has a response schema for both versions of every operation', () => {
    for (const name of OPERATION_NAMES) {
      expect(operations[name].versions).toEqual(API_VERSIONS);
      for (const version of API_VERSIONS)
        expect(typeof operations[name].response[version].safeParse).toBe('function');
    }
  });

  it('expandPath puts the id in as one encoded path segment', () => {
    expect(expandPath('/orders/{id}', 42)).toBe('/orders/42');
    expect(expandPath('/orders/{id}', 'a/b c')).toBe('/orders/a%2Fb%20c');
    expect(expandPath('/orders')).toBe('/orders');
    expect(() => expandPath('/orders/{id}')).toThrow(TypeError);
  });

  it('pathPattern matches one id segment below the base path and nothing more', () => {
    const pattern = pathPattern('/orders/{id}', '/api');
    expect(pattern.exec(`/api/orders/${ORDER_UUID}`)?.[1]).toBe(ORDER_UUID);
    expect(pattern.test('/api/orders/1/lines')).toBe(false);
    expect(pattern.test('/api/orders')).toBe(false);
    expect(pathPattern('/orders', '/api').test('/api/orders')).toBe(true);
  });
});

describe('the request schemas', () => {
  it.each(SHIPPING_COUNTRIES)('countrySchema accepts %s in either case', (country) => {
    expect(countrySchema.safeParse(country).success).toBe(true);
    expect(countrySchema.safeParse(country.toLowerCase()).success).toBe(true);
  });

  it('countrySchema refuses a country the vendor does not ship to', () => {
    expect(countrySchema.safeParse('US').success).toBe(false);
  });

  it.each([
    [1, true],
    ['42', true],
    [ORDER_UUID, true],
    [ORDER_UUID.toUpperCase(), true],
    ['042', false],
    [0, false],
    ['42abc', false],
  ])('orderRefSchema reads %s as an order id: %s', (id, valid) => {
    expect(orderRefSchema.safeParse(id).success).toBe(valid);
  });

  it('createOrderV1Schema has no quote lines: quotes are a v2 feature', () => {
    const quote = { ...createBodies.v1, quoteId: 'Q-1', orderLines: [{ quoteLineItemId: 1 }] };
    expect(createOrderV1Schema.safeParse(quote).success).toBe(false);
    expect(
      createOrderV2Schema.safeParse({
        ...createBodies.v2,
        quoteId: 'Q-1',
        orderLines: [{ quoteLineItemId: 1 }],
      }).success,
    ).toBe(true);
  });

  it('createOrderV2Schema reports a missing orderLines without tripping over the quote rule', () => {
    const { orderLines: _lines, ...rest } = createBodies.v2;
    const result = createOrderV2Schema.safeParse(rest);
    expect(result.success).toBe(false);
    expect(toFieldIssues(result.error?.issues ?? []).map((issue) => issue.path)).toEqual(['orderLines']);
  });

  it.each([
    ['v1', updateOrderV1Schema],
    ['v2', updateOrderV2Schema],
  ])(
    'the %s update schema wants at least one field and accepts any one changeable field',
    (_version, schema) => {
      expect(schema.safeParse({}).success).toBe(false);
      expect(schema.safeParse({ reference: 'new' }).success).toBe(true);
      expect(schema.safeParse({ testOrder: true }).success).toBe(true);
    },
  );

  it('cancelOrderSchema wants a reason that is not blank, and nothing else', () => {
    expect(cancelOrderSchema.safeParse({ reason: 'duplicate' }).success).toBe(true);
    expect(cancelOrderSchema.safeParse({ reason: '' }).success).toBe(false);
    expect(cancelOrderSchema.safeParse({ reason: 'x', force: true }).success).toBe(false);
  });

  it('listQuerySchema accepts limit 1 to 50, an offset from 0 and one order status', () => {
    expect(listQuerySchema.safeParse({ limit: 50, offset: 0, status: 'unknown' }).success).toBe(true);
    expect(listQuerySchema.safeParse({ limit: 1 }).success).toBe(true);
    expect(listQuerySchema.safeParse({ limit: 51 }).success).toBe(false);
  });
});

describe('the response schemas', () => {
  it('orderDetailSchema reads a line id that is a number or a string', () => {
    const body = orderDetailJson();
    (body.lines[0] as Record<string, unknown>).id = 10004274;
    expect(orderDetailSchema.safeParse(body).success).toBe(true);
    expect(orderDetailSchema.safeParse(orderDetail).success).toBe(true);
  });

  it('orderDetailSchema reads the nullable fields as null and addressInfo as an object', () => {
    const body = orderDetailJson();
    Object.assign(body, { uuid: null, reference: null });
    Object.assign(body.lines[0] as object, {
      shipmentInfo: null,
      customerDiscount: null,
      addressInfo: { city: 'Gent' },
    });
    expect(orderDetailSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    [
      'an order status it does not know',
      (body: ReturnType<typeof orderDetailJson>) => (body.status = 'paid'),
      'status',
    ],
    [
      'a line status it does not know',
      (body: ReturnType<typeof orderDetailJson>) =>
        ((body.lines[0] as Record<string, unknown>).status = 'lost'),
      'lines[0].status',
    ],
    [
      'a date without a zone',
      (body: ReturnType<typeof orderDetailJson>) => (body.date = '2024-03-05T10:15:00'),
      'date',
    ],
    [
      'a delivery address that is true',
      (body: ReturnType<typeof orderDetailJson>) => (body.deliveryAddress = true),
      'deliveryAddress',
    ],
  ])('orderDetailSchema refuses %s and names %s', (_what, breakBody, path) => {
    const body = orderDetailJson();
    breakBody(body);
    const result = orderDetailSchema.safeParse(body);
    expect(toFieldIssues(result.error?.issues ?? []).map((issue) => issue.path)).toEqual([path]);
  });

  it('orderDetailSchema leaves out an optional field no contract pins when it is not as documented, and reads the rest', () => {
    const body = orderDetailJson();
    const shipment = {
      trackAndTraceUrl: ['https://track.example/1'],
      houseNumber: 123,
      shippingCost: '0.00',
    };
    Object.assign(body.lines[0] as object, {
      shippingCost: 'free',
      externalId: 42,
      shipmentInfo: [shipment],
    });
    const result = orderDetailSchema.safeParse(body);
    expect(result.error).toBeUndefined();
    const [line] = result.data?.lines ?? [];
    expect([line?.shippingCost, line?.externalId]).toEqual([undefined, undefined]);
    expect(line?.shipmentInfo?.[0]).toMatchObject({
      houseNumber: undefined,
      shippingCost: undefined,
      trackAndTraceUrl: ['https://track.example/1'],
    });
    // As documented, or null, they are typed and kept.
    Object.assign(body.lines[0] as object, { shippingCost: 4.95, externalId: null });
    expect(orderDetailSchema.parse(body).lines[0]).toMatchObject({ shippingCost: 4.95, externalId: null });
  });

  it('orderListSchema reads a page and refuses a negative count', () => {
    expect(orderListSchema.safeParse({ count: 1, orders: [orderSummary(1)] }).success).toBe(true);
    expect(orderListSchema.safeParse({ count: -1, orders: [] }).success).toBe(false);
  });

  it.each([
    ['a message key', { message: 'Order not found', code: 17 }, 'Order not found'],
    ['an error key', { error: 'Cancel order failed' }, 'Cancel order failed'],
    ['another key, deeper down', { errors: [{ code: 5, detail: 'creation failed' }] }, 'creation failed'],
    ['a JSON string', 'Cancel order failed', 'Cancel order failed'],
    ['a page of markup', '<html>Bad gateway</html>', undefined],
    ['no text at all', { code: 500 }, undefined],
  ])('vendorMessageOf reads the message of a body with %s', (_what, body, message) => {
    expect(vendorMessageOf(body)).toBe(message);
  });

  it('formatPath writes array indexes in brackets and keys with dots', () => {
    expect(formatPath(['orderLines', 0, 'files', 1, 'url'])).toBe('orderLines[0].files[1].url');
    expect(formatPath([])).toBe('');
  });
});
