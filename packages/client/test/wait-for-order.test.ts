import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  HttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  OrderCreationFailedError,
  OrderWaitTimeoutError,
  RequestValidationError,
  TransportError,
} from '../src/index.js';
import { ORDER_UUID, orderDetail } from './support/fixtures.js';
import { inSequence, neverAnswer, reply, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

const notFound = reply(404, { message: 'Order not found' });
const quick = { intervalMs: 1, maxIntervalMs: 4 };

describe.each(API_VERSIONS)('waitForOrder in %s', (apiVersion) => {
  it('polls GET /api/orders/{uuid} through 404s until the order is there', async () => {
    api.server.handle(inSequence(notFound, notFound, notFound, reply(200, orderDetail)));
    const order = await api.client({ apiVersion }).waitForOrder(ORDER_UUID, quick);
    expect(order).toEqual(orderDetail);
    expect(api.server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(
      Array.from({ length: 4 }, () => `GET /api/orders/${ORDER_UUID}`),
    );
  });

  it('stops with OrderCreationFailedError when the 404 says creation failed', async () => {
    api.server.handle(
      inSequence(notFound, reply(404, { message: 'Order creation failed: unknown product' })),
    );
    const error = await api
      .client({ apiVersion })
      .waitForOrder(ORDER_UUID, quick)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OrderCreationFailedError);
    expect(isOrderCreationFailedError(error)).toBe(true);
    expect(error).toMatchObject({
      uuid: ORDER_UUID,
      vendorMessage: 'Order creation failed: unknown product',
      code: 'ERR_PRINT_ORDER_CREATION_FAILED',
    });
    expect(api.server.requests).toHaveLength(2);
  });

  it('ends with OrderWaitTimeoutError, not the 429, when throttling outlasts its bound', async () => {
    api.server.handle(inSequence(notFound, reply(429, {}, { 'retry-after': '1' })));
    const error = await api
      .client({ apiVersion })
      .waitForOrder(ORDER_UUID, { timeoutMs: 1_500, ...quick })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OrderWaitTimeoutError);
    // Throttled to the end: not shown missing, and the error says so.
    expect(error).toMatchObject({ uuid: ORDER_UUID, lastMessage: 'Order not found', throttled: true });
  });

  it('gives up with OrderWaitTimeoutError after its bound, keeping the last message', async () => {
    api.server.handle(notFound);
    const error = await api
      .client({ apiVersion })
      .waitForOrder(ORDER_UUID, { timeoutMs: 40, ...quick })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OrderWaitTimeoutError);
    expect(isOrderWaitTimeoutError(error)).toBe(true);
    expect(error).toMatchObject({ uuid: ORDER_UUID, lastMessage: 'Order not found', throttled: false });
    expect(api.server.requests.length).toBeGreaterThanOrEqual(1);
    expect(new Set(api.server.requests.map((request) => request.path))).toEqual(
      new Set([`/api/orders/${ORDER_UUID}`]),
    );
  });
});

describe('waitForOrder', () => {
  it('waitForOrder passes on an error other than 404 at once', async () => {
    api.server.handle(reply(401, { message: 'Unknown credentials' }));
    const error = await api
      .client()
      .waitForOrder(ORDER_UUID, quick)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 401 });
    expect(api.server.requests).toHaveLength(1);
  });

  it('waitForOrder refuses an id that is not a uuid or an order id, sending nothing', async () => {
    const error = await api
      .client()
      .waitForOrder('not-a-uuid', quick)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(api.server.requests).toHaveLength(0);
  });

  it('waitForOrder ends with an aborted TransportError when the caller aborts during a pause', async () => {
    api.server.handle(notFound);
    // The 404 comes back within milliseconds, then the client would sleep for a minute: the
    // abort lands in that sleep (and were it to land in the request, the error is the same).
    const error = await api
      .client()
      .waitForOrder(ORDER_UUID, { intervalMs: 60_000, signal: AbortSignal.timeout(250) })
      .catch((caught: unknown) => caught);
    expect(api.server.requests).toHaveLength(1);
    expect(error).toBeInstanceOf(TransportError);
    expect(error).toMatchObject({ failure: 'aborted', method: 'GET', path: `/api/orders/${ORDER_UUID}` });
  });

  it('waitForOrder ends with an aborted TransportError when the caller aborts during a request', async () => {
    api.server.handle(neverAnswer);
    const controller = new AbortController();
    const waiting = api
      .client()
      .waitForOrder(ORDER_UUID, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    await api.server.requestCount(1);
    controller.abort();
    expect(await waiting).toMatchObject({ code: 'ERR_PRINT_TRANSPORT', failure: 'aborted' });
  });
});
