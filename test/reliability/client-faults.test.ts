import {
  exampleOrder,
  isHttpError,
  isResponseValidationError,
  isTransportError,
  type OperationName,
  OrdersClient,
  type PrintOrderError,
  type TransportFailure,
} from '@print-contracts/client';
import { type FaultRule, type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';

let api: SampleApi;
let client: OrdersClient<'v2'>;
let orderId: number;

const TIMEOUT_MS = 300;

beforeAll(async () => {
  api = await startSampleApi({ processingDelayMs: 0 });
  const [main] = api.credentials;
  if (!main) throw new Error('no credentials');
  // Short backoff so recovery is quick; the retry count is the client's default.
  client = new OrdersClient({ baseUrl: api.url, ...main, timeoutMs: TIMEOUT_MS, retry: { baseDelayMs: 5 } });
  const { orders } = await client.listOrders();
  orderId = orders[0]?.id ?? 0;
});
beforeEach(() => api.setFaults([]));
afterAll(async () => {
  await client.close();
  await api.close();
});

type Fault = Omit<FaultRule, 'operation' | 'times'>;

const faults: { name: string; fault: Fault; get: 'recovers' | Expected; create: 'recovers' | Expected }[] = [
  {
    name: 'latency beyond the timeout',
    fault: { latencyMs: TIMEOUT_MS * 6 },
    get: 'recovers',
    create: { kind: 'transport', failure: 'timeout' },
  },
  // A 429 or 503 proves nothing was processed: the create is sent again.
  { name: 'a 503', fault: { status: 503 }, get: 'recovers', create: 'recovers' },
  {
    name: 'a 500',
    fault: { status: 500 },
    get: { kind: 'http', status: 500 },
    create: { kind: 'http', status: 500 },
  },
  {
    name: 'a 429 with Retry-After',
    fault: { status: 429, retryAfterSeconds: 1 },
    get: 'recovers',
    create: 'recovers',
  },
  {
    name: 'a dropped connection',
    fault: { drop: true },
    get: 'recovers',
    create: { kind: 'transport', failure: 'reset' },
  },
  {
    name: 'a truncated body',
    fault: { truncate: true },
    get: 'recovers',
    create: { kind: 'transport', failure: 'reset' },
  },
  {
    name: 'a non-JSON body',
    fault: { nonJson: true },
    get: { kind: 'response' },
    create: { kind: 'response' },
  },
  {
    name: 'a 2xx whose body breaks the schema',
    fault: { badSchema: true },
    get: { kind: 'response' },
    create: { kind: 'response' },
  },
];

type Expected =
  | { kind: 'transport'; failure: TransportFailure }
  | { kind: 'http'; status: number }
  | { kind: 'response' };

function expectTyped(error: unknown, expected: Expected) {
  if (expected.kind === 'transport') {
    expect(isTransportError(error) && error.failure, String(error)).toBe(expected.failure);
  } else if (expected.kind === 'http') {
    expect(isHttpError(error) && error.status, String(error)).toBe(expected.status);
  } else {
    expect(isResponseValidationError(error), String(error)).toBe(true);
  }
  // Every message says what happened and to which request.
  expect((error as PrintOrderError).message).toMatch(/(GET|POST) \/api\/orders/);
}

const ordersCount = async () => (await client.listOrders({ limit: 1 })).count;

describe('the client against the sample API with an injected fault', () => {
  it.each(faults)(
    'GET of an order with $name: recovers within the retry policy or fails typed',
    async ({ fault, get }) => {
      const operation: OperationName = 'getOrder';
      api.setFaults([{ ...fault, operation, times: 1 }]);
      if (get === 'recovers') {
        await expect(client.getOrder(orderId)).resolves.toMatchObject({ id: orderId });
      } else {
        const error = await client.getOrder(orderId).catch((e: unknown) => e);
        expectTyped(error, get);
      }
    },
  );

  it.each(faults)(
    'create with $name: is sent again only when nothing was processed, else fails typed',
    async ({ fault, create }) => {
      const before = await ordersCount();
      api.setFaults([{ ...fault, operation: 'createOrder', times: 1 }]);
      const result = await client
        .createOrder(exampleOrder('v2', { testOrder: true }))
        .catch((e: unknown) => e);
      if (create === 'recovers') expect(result).toMatchObject({ uuid: expect.any(String) });
      else expectTyped(result, create);
      api.setFaults([]);
      // At most the one attempt reached the store: a retry would have created a second order.
      expect((await ordersCount()) - before).toBeLessThanOrEqual(1);
    },
  );

  it('GET fails with a timeout TransportError once the retries are spent', async () => {
    api.setFaults([{ operation: 'getOrder', latencyMs: TIMEOUT_MS * 6 }]);
    const impatient = new OrdersClient({
      baseUrl: api.url,
      ...(api.credentials[0] as { userId: string; secret: string }),
      timeoutMs: TIMEOUT_MS,
      retry: { retries: 0 },
    });
    const error = await impatient.getOrder(orderId).catch((e: unknown) => e);
    await impatient.close();
    expectTyped(error, { kind: 'transport', failure: 'timeout' });
  });
});
