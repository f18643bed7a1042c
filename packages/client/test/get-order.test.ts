import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  HttpError,
  isRequestValidationError,
  orderDetailSchema,
  RequestValidationError,
} from '../src/index.js';
import { ORDER_ID, ORDER_UUID, orderDetail } from './support/fixtures.js';
import { reply, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

describe.each(API_VERSIONS)('getOrder in %s', (apiVersion) => {
  it('gets an order by its numeric id', async () => {
    api.server.handle(reply(200, orderDetail));
    const order = await api.client({ apiVersion }).getOrder(ORDER_ID);
    expect(order).toEqual(orderDetail);
    expect(api.server.request()).toMatchObject({ method: 'GET', path: `/api/orders/${ORDER_ID}`, body: '' });
  });

  it('gets an order by its uuid', async () => {
    api.server.handle(reply(200, orderDetail));
    const order = await api.client({ apiVersion }).getOrder(ORDER_UUID);
    expect(order.uuid).toBe(ORDER_UUID);
    expect(api.server.request().path).toBe(`/api/orders/${ORDER_UUID}`);
  });

  it('accepts a numeric id given as a string', async () => {
    api.server.handle(reply(200, orderDetail));
    await api.client({ apiVersion }).getOrder(String(ORDER_ID));
    expect(api.server.request().path).toBe(`/api/orders/${ORDER_ID}`);
  });

  it('returns the detail as the schema reads it: line ids numbers or strings, track-and-trace URLs as lists', async () => {
    api.server.handle(reply(200, orderDetail));
    const order = await api.client({ apiVersion }).getOrder(ORDER_ID);
    expect(orderDetailSchema.parse(order)).toEqual(order);
    expect(order.lines.map((line) => line.id)).toEqual([5178124, 5178125, '10004274-3']);
    expect(
      order.lines.map((line) => line.shipmentInfo?.map((shipment) => shipment.trackAndTraceUrl)),
    ).toEqual([undefined, [['http://www.example.com/track-and-trace']], []]);
  });

  it('turns a 404 into an HttpError with the vendor message', async () => {
    api.server.handle(reply(404, { message: 'Order not found' }));
    const error = await api
      .client({ apiVersion })
      .getOrder(999)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 404,
      method: 'GET',
      path: '/api/orders/999',
      vendorMessage: 'Order not found',
    });
  });
});

describe('getOrder refuses an id that is neither a numeric id nor a uuid', () => {
  it.each([
    ['zero', 0],
    ['a negative number', -4],
    ['a fraction', 1.5],
    ['a word', 'latest'],
    ['a path', '../admin'],
    ['an empty string', ''],
    ['a uuid with a segment missing', '3f2b8c1e-9a4d-4e7b-8c2a'],
  ])('getOrder refuses %s and sends nothing', async (_what, id) => {
    const error = await api
      .client()
      .getOrder(id)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(isRequestValidationError(error) && error.issues.map((issue) => issue.path)).toEqual(['id']);
    expect(api.server.requests).toHaveLength(0);
    expect(api.server.connections).toBe(0);
  });

  it('getOrder sends an odd id, encoded as one path segment, when validation is off', async () => {
    api.server.handle(reply(404, { message: 'Order not found' }));
    const error = await api
      .client()
      .getOrder('../admin', { validate: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(api.server.request().path).toBe('/api/orders/..%2Fadmin');
  });
});

describe('send', () => {
  it('send reaches any operation of the table by name', async () => {
    api.server.handle(reply(200, orderDetail));
    const order = await api.client().send('getOrder', { id: ORDER_ID });
    expect(order).toEqual(orderDetail);
    expect(api.server.request().path).toBe(`/api/orders/${ORDER_ID}`);
  });
});
