import {
  ERROR_CODES,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
} from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspect } from './helpers/control.js';
import { orderFor, unknownProductOrder, VERSIONS } from './helpers/orders.js';
import { JSON_BODY, startTestApi, type TestApi } from './helpers/sample-api.js';

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe.each(VERSIONS)('the sample API creates %s orders asynchronously', (version) => {
  let quick: TestApi;
  let slow: TestApi;
  beforeAll(async () => {
    quick = await startTestApi({ processingDelayMs: 20, control: true });
    // Processing never finishes on its own here: only the control surface ends it.
    slow = await startTestApi({ processingDelayMs: 3_600_000, control: true });
  });
  afterAll(() => Promise.all([quick.close(), slow.close()]));

  it('answers 201 with only the uuid of the new order', async () => {
    const answer = await quick.raw({
      method: 'POST',
      path: '/api/orders',
      version,
      headers: JSON_BODY,
      body: JSON.stringify(orderFor(version)),
    });
    expect(answer.status).toBe(201);
    expect(answer.json).toEqual({ uuid: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('answers 404 "Order not found" and leaves the order out of the list while it is processing', async () => {
    const { uuid } = await slow.client(version).createOrder(orderFor(version) as never);
    const error = await caught(slow.client(version).getOrder(uuid));
    expect(isHttpError(error) && [error.status, error.vendorMessage]).toEqual([404, 'Order not found']);
    const page = await slow.client(version).listOrders();
    expect(page.orders.map((order) => order.uuid)).not.toContain(uuid);
    expect((await inspect(slow, uuid)).processing).toBe('processing');
  });

  it('lets waitForOrder give up with OrderWaitTimeoutError while the order is still processing', async () => {
    const { uuid } = await slow.client(version).createOrder(orderFor(version) as never);
    const error = await caught(slow.client(version).waitForOrder(uuid, { timeoutMs: 60, intervalMs: 10 }));
    expect(isOrderWaitTimeoutError(error)).toBe(true);
  });

  it('makes the order readable once processing is done', async () => {
    const { uuid } = await quick.client(version).createOrder(orderFor(version) as never);
    const order = await quick.client(version).waitForOrder(uuid, { timeoutMs: 5_000, intervalMs: 5 });
    expect(order.uuid).toBe(uuid);
    expect((await quick.client(version).listOrders({ limit: 1 })).orders[0]?.uuid).toBe(uuid);
  });

  it('accepts an order for an unknown product, then fails it: 404 saying creation failed', async () => {
    const { uuid } = await quick.client(version).createOrder(unknownProductOrder(version) as never);
    const error = await caught(quick.client(version).waitForOrder(uuid, { timeoutMs: 5_000, intervalMs: 5 }));
    expect(isOrderCreationFailedError(error)).toBe(true);
    expect((error as { code: string }).code).toBe(ERROR_CODES.orderCreationFailed);
    const direct = await quick.raw({ path: `/api/orders/${uuid}`, version });
    expect(direct.status).toBe(404);
    expect((direct.json as { message: string }).message).toMatch(/creation failed/i);
  });

  it('keeps a failed order out of the list and refuses to update or cancel it with 404', async () => {
    const { uuid } = await quick.client(version).createOrder(unknownProductOrder(version) as never);
    await caught(quick.client(version).waitForOrder(uuid, { timeoutMs: 5_000, intervalMs: 5 }));
    const { id, processing } = await inspect(quick, uuid);
    expect(processing).toBe('failed');
    for (const ref of [uuid, String(id)]) {
      const read = await quick.raw({ path: `/api/orders/${ref}`, version });
      expect([read.status, (read.json as { message: string }).message]).toEqual([
        404,
        expect.stringMatching(/creation failed/i),
      ]);
    }
    expect(await caught(quick.client(version).updateOrder(uuid, { reference: 'x' }))).toMatchObject({
      status: 404,
    });
    expect(await caught(quick.client(version).cancelOrder(uuid, 'x'))).toMatchObject({ status: 404 });
    expect((await quick.client(version).listOrders()).orders.map((order) => order.uuid)).not.toContain(uuid);
  });

  it('makes an order readable at once when the processing delay is 0', async () => {
    const instant = await startTestApi({ processingDelayMs: 0 });
    try {
      const { uuid } = await instant.client(version).createOrder(orderFor(version) as never);
      expect((await instant.client(version).getOrder(uuid)).uuid).toBe(uuid);
    } finally {
      await instant.close();
    }
  });
});
