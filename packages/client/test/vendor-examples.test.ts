import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  addressSchema,
  type CreateOrderV2,
  isOrderCreationFailedError,
  type UpdateOrderV1,
} from '../src/index.js';
import { VENDOR_EXAMPLES } from '../src/kit.js';
import { jsonOf, ORDER_ID, ORDER_UUID } from './support/fixtures.js';
import { reply, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();
const examples = VENDOR_EXAMPLES;

/** A fresh, mutable copy of an example's body, as a caller would build it. */
const copy = <T>(body: T) => structuredClone(body) as unknown;

describe.each(API_VERSIONS)("the vendor's documented answers, served to the %s client", (apiVersion) => {
  it('listOrders accepts the documented list', async () => {
    api.server.handle(reply(200, examples.orderList.body));
    await expect(api.client({ apiVersion }).listOrders()).resolves.toEqual(examples.orderList.body);
  });

  it('getOrder accepts the documented detail, with its null uuid, string line id and lines without shippingCost', async () => {
    api.server.handle(reply(200, examples.orderDetail.body));
    const order = await api.client({ apiVersion }).getOrder(ORDER_ID);
    expect(order).toEqual(examples.orderDetail.body);
    expect(order.uuid).toBeNull();
  });

  it('createOrder accepts the documented answer: the uuid of an order still being created', async () => {
    api.server.handle(reply(200, examples.orderCreated.body));
    const created = await api.client({ apiVersion }).send('createOrder', { body: {} }, { validate: false });
    expect(created).toEqual(examples.orderCreated.body);
  });

  it('cancelOrder accepts the documented answer', async () => {
    api.server.handle(reply(200, examples.orderCancelled.body));
    await expect(
      api.client({ apiVersion }).cancelOrder(ORDER_ID, examples.cancelOrder.body.reason),
    ).resolves.toEqual({ success: true });
    expect(jsonOf(api.server.request().body)).toEqual(examples.cancelOrder.body);
  });

  it.each([
    ['a JSON object', { message: 'Cancel order failed' }],
    ['a JSON string', 'Cancel order failed'],
    ['a key the kit does not guess', { errors: [{ detail: 'Cancel order failed' }] }],
  ])('cancelOrder reads "Cancel order failed" from a 500 whose body is %s', async (_what, body) => {
    api.server.handle(reply(500, body));
    const error = await api
      .client({ apiVersion })
      .cancelOrder(ORDER_ID, 'too late')
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 500, vendorMessage: 'Cancel order failed' });
  });

  it('waitForOrder learns from a 404 saying so, under any key, that creation failed', async () => {
    api.server.handle(reply(404, { errors: [{ detail: 'The order creation has failed' }] }));
    const error = await api
      .client({ apiVersion })
      .waitForOrder(ORDER_UUID, { timeoutMs: 5_000 })
      .catch((caught: unknown) => caught);
    expect(isOrderCreationFailedError(error) && error.vendorMessage).toBe('The order creation has failed');
  });

  it.each([
    ['the partial update', examples.updatePartial.body],
    ['the whole-payload update, invoiceAddress and deliveryMethod included', examples.updateWhole.body],
    ['the PHP example, paymentMethod included', examples.updateRequestExample.body],
  ])('updateOrder sends %s of the removed changing-orders page as documented', async (_what, body) => {
    api.server.handle(reply(200, {}));
    await api.client({ apiVersion }).updateOrder(ORDER_UUID, copy(body) as UpdateOrderV1);
    expect(jsonOf(api.server.request().body)).toEqual(body);
  });
});

describe("the vendor's documented requests, sent by the v2 client", () => {
  it.each([
    ['the create example, whose second line has no files', examples.createOrder.body],
    ['the quote order example', examples.createQuoteOrder.body],
  ])('createOrder sends %s as documented', async (_what, body) => {
    api.server.handle(reply(201, examples.orderCreated.body));
    await api.client({ apiVersion: 'v2' }).createOrder(copy(body) as CreateOrderV2);
    expect(jsonOf(api.server.request().body)).toEqual(body);
  });

  it.each(Object.entries(examples.addresses.body))(
    'reads the documented %s as an address',
    (_which, address) => {
      expect(addressSchema.parse(address)).toEqual(address);
    },
  );
});
