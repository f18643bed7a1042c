import {
  isHttpError,
  isResponseValidationError,
  isTransportError,
  OPERATION_NAMES,
  type OperationName,
  operations,
  orderCreatedSchema,
} from '@print-contracts/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  type FaultRule,
  isSampleApiConfigurationError,
  SAMPLE_API_ERROR_CODES,
  startSampleApi,
} from '../src/index.js';
import { orderFor } from './helpers/orders.js';
import { startTestApi, type TestApi } from './helpers/sample-api.js';

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

/** Calls `operation` through the real v2 client on order 1000012 (an order that may change). */
function call(t: TestApi, operation: OperationName, options: Parameters<TestApi['client']>[2] = {}) {
  const client = t.client('v2', undefined, options);
  switch (operation) {
    case 'listOrders':
      return client.listOrders();
    case 'getOrder':
      return client.getOrder(1_000_013);
    case 'createOrder':
      return client.createOrder(orderFor('v2') as never);
    case 'updateOrder':
      return client.updateOrder(1_000_013, { reference: 'fault test' });
    case 'updateOrderWithPost':
      return client.updateOrderWithPost(1_000_013, { reference: 'fault test' });
    case 'cancelOrder':
      return client.cancelOrder(1_000_013, 'fault test');
  }
}

describe('the sample API injects faults', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
  });
  beforeEach(() => t.api.setFaults([]));
  afterAll(() => t.close());

  it.each([502, 503, 500])(
    'answers %s JSON to the next matching request only when times is 1',
    async (status) => {
      t.api.setFaults([{ operation: 'getOrder', status, times: 1 }]);
      const first = await caught(call(t, 'getOrder'));
      expect(isHttpError(first) && first.status).toBe(status);
      expect(await caught(call(t, 'getOrder'))).toBeUndefined();
    },
  );

  it('answers 429 with Retry-After', async () => {
    t.api.setFaults([{ status: 429, retryAfterSeconds: 7 }]);
    const answer = await t.raw({ path: '/api/orders' });
    expect([answer.status, answer.headers['retry-after']]).toEqual([429, '7']);
    const error = await caught(call(t, 'listOrders'));
    expect(isHttpError(error) && error.retryAfterSeconds).toBe(7);
  });

  it('lets a client retry through a 503 on an idempotent request', async () => {
    t.api.setFaults([{ operation: 'listOrders', status: 503, retryAfterSeconds: 0, times: 2 }]);
    const page = await call(t, 'listOrders', { retry: { retries: 2 } });
    expect(page).toMatchObject({ count: expect.any(Number) });
  });

  it('touches only the operations a rule names', async () => {
    t.api.setFaults([{ operation: ['createOrder', 'cancelOrder'], status: 500 }]);
    expect(await caught(call(t, 'listOrders'))).toBeUndefined();
    expect(await caught(call(t, 'getOrder'))).toBeUndefined();
    expect(isHttpError(await caught(call(t, 'createOrder')))).toBe(true);
    expect(isHttpError(await caught(call(t, 'cancelOrder')))).toBe(true);
  });

  it('fires a rule with rate 0 never and with rate 1 always', async () => {
    t.api.setFaults([{ status: 500, rate: 0 }]);
    for (let i = 0; i < 5; i++) expect((await t.raw({ path: '/api/orders' })).status).toBe(200);
    t.api.setFaults([{ status: 500, rate: 1 }]);
    for (let i = 0; i < 5; i++) expect((await t.raw({ path: '/api/orders' })).status).toBe(500);
  });

  it('fires a rate on the same requests for the same seed', async () => {
    const sequence = async () => {
      t.api.setFaults([{ status: 503, rate: 0.5, seed: 42 }]);
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) statuses.push((await t.raw({ path: '/api/orders' })).status);
      return statuses;
    };
    const first = await sequence();
    expect(await sequence()).toEqual(first);
    expect(first).toContain(503);
    expect(first).toContain(200);
  });

  it('adds latency that a client timeout notices', async () => {
    t.api.setFaults([{ operation: 'getOrder', latencyMs: 5_000 }]);
    const error = await caught(call(t, 'getOrder', { timeoutMs: 100 }));
    expect(isTransportError(error) && error.failure).toBe('timeout');
  });

  it('answers normally after latency alone', async () => {
    t.api.setFaults([{ latencyMs: 5 }]);
    expect(await call(t, 'listOrders')).toMatchObject({ count: expect.any(Number) });
  });

  it.each(OPERATION_NAMES)('drops the connection of %s without an answer', async (operation) => {
    t.api.setFaults([{ operation, drop: true }]);
    const error = await caught(call(t, operation));
    expect(isTransportError(error)).toBe(true);
  });

  it.each(OPERATION_NAMES)('truncates the body of %s after a longer Content-Length', async (operation) => {
    t.api.setFaults([{ operation, truncate: true }]);
    const error = await caught(call(t, operation));
    expect(isTransportError(error) && error.failure).toBe('reset');
  });

  /** Operations whose answer the client reads into a shape (an update's answer is undocumented). */
  const READ_ANSWERS = OPERATION_NAMES.filter(
    (name) => !operations[name].response.v2.safeParse(null).success,
  );

  it.each(READ_ANSWERS)('answers %s with 200 and a non-JSON body', async (operation) => {
    t.api.setFaults([{ operation, nonJson: true }]);
    const error = await caught(call(t, operation));
    expect(isResponseValidationError(error) && error.issues).toEqual([]);
  });

  it('has operations whose answer the client reads, and updates whose answer it does not', () => {
    expect(READ_ANSWERS).toEqual(['listOrders', 'getOrder', 'createOrder', 'cancelOrder']);
  });

  it.each(READ_ANSWERS)('answers %s with 2xx JSON that breaks its response schema', async (operation) => {
    t.api.setFaults([{ operation, badSchema: true }]);
    const error = await caught(call(t, operation));
    expect(isResponseValidationError(error) && error.issues.length).toBeGreaterThan(0);
  });

  it('breaks the create answer so that it no longer has a uuid', async () => {
    t.api.setFaults([{ operation: 'createOrder', badSchema: true }]);
    const answer = await t.raw({
      method: 'POST',
      path: '/api/orders',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(orderFor('v1')),
    });
    expect(answer.status).toBe(201);
    expect(orderCreatedSchema.safeParse(answer.json).success).toBe(false);
  });

  it('applies faults from the start option', async () => {
    const faulty = await startTestApi({ faults: [{ status: 503 }] });
    try {
      expect((await faulty.raw({ path: '/api/orders' })).status).toBe(503);
    } finally {
      await faulty.close();
    }
  });

  it.each<[string, unknown]>([
    ['a status outside 429 and 5xx', [{ status: 404 }]],
    ['two effects', [{ drop: true, truncate: true }]],
    ['no effect at all', [{ operation: 'getOrder' }]],
    ['an unknown operation', [{ operation: 'launchRocket', status: 500 }]],
    ['a rate above 1', [{ status: 500, rate: 1.5 }]],
    ['a negative latency', [{ latencyMs: -1 }]],
    ['Retry-After without a status', [{ drop: true, retryAfterSeconds: 3 }]],
    ['an unknown field', [{ status: 500, colour: 'red' }]],
  ])('refuses fault rules with %s with a configuration error', async (_name, rules) => {
    const error = (() => {
      try {
        t.api.setFaults(rules as FaultRule[]);
      } catch (thrown) {
        return thrown;
      }
    })();
    expect(isSampleApiConfigurationError(error)).toBe(true);
    expect((error as { code: string }).code).toBe(SAMPLE_API_ERROR_CODES.configuration);
    await expect(startSampleApi({ faults: rules as FaultRule[] })).rejects.toMatchObject({
      code: SAMPLE_API_ERROR_CODES.configuration,
    });
  });

  it('closes promptly while a delayed answer is pending', async () => {
    const slow = await startTestApi({ faults: [{ latencyMs: 60_000 }] });
    const pending = caught(slow.raw({ path: '/api/orders' }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await slow.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
