import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  type ApiVersion,
  ERROR_CODES,
  isPrintOrderError,
  isResponseValidationError,
  type OperationName,
  type OrdersClient,
  operations,
} from '../src/index.js';
import { createBodies, ORDER_ID, ORDER_UUID, orderDetail, orderSummary } from './support/fixtures.js';
import { send, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

/** `value` with, now and then, a field swapped for a random JSON value: mostly valid, sometimes not. */
function nearly(value: unknown): fc.Arbitrary<unknown> {
  if (Array.isArray(value)) {
    return value.length === 0 ? fc.constant([]) : fc.array(nearly(value[0]), { maxLength: 3 });
  }
  if (value !== null && typeof value === 'object') {
    const shape = Object.fromEntries(
      Object.entries(value).map(([key, field]) => [
        key,
        fc.oneof({ weight: 20, arbitrary: nearly(field) }, { weight: 1, arbitrary: fc.jsonValue() }),
      ]),
    );
    return fc.record(shape);
  }
  return fc.constant(value);
}

/** Each call, with an answer shaped like the one it expects. */
const calls: Record<
  'listOrders' | 'getOrder' | 'createOrder' | 'updateOrder' | 'cancelOrder',
  { expected: unknown; run: (client: OrdersClient<ApiVersion>, version: ApiVersion) => Promise<unknown> }
> = {
  listOrders: {
    expected: { count: 2, orders: [orderSummary(1), orderSummary(2)] },
    run: (client) => client.listOrders({ limit: 2 }),
  },
  getOrder: { expected: orderDetail, run: (client) => client.getOrder(ORDER_UUID) },
  createOrder: {
    expected: { uuid: ORDER_UUID },
    run: (client, version) => client.createOrder(createBodies[version]),
  },
  updateOrder: { expected: orderDetail, run: (client) => client.updateOrder(ORDER_ID, { reference: 'x' }) },
  cancelOrder: { expected: { success: true }, run: (client) => client.cancelOrder(ORDER_ID, 'duplicate') },
};

const callNames = Object.keys(calls) as (keyof typeof calls)[];
const statuses = [200, 201, 204, 400, 401, 404, 409, 429, 500, 502, 503];

/** A response body as raw text: near-valid JSON for the call, any JSON, or any string at all. */
const body = (name: keyof typeof calls) =>
  fc.oneof(
    { weight: 3, arbitrary: nearly(calls[name].expected).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.jsonValue().map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
  );

const exchange = fc
  .record({
    version: fc.constantFrom(...API_VERSIONS),
    name: fc.constantFrom(...callNames),
    status: fc.constantFrom(...statuses),
  })
  .chain((picked) => body(picked.name).map((text) => ({ ...picked, text })));

// Bounded by its runs (about 1 s alone); the bound on time leaves room for a machine busy with other suites.
describe('any answer', { timeout: 90_000 }, () => {
  it('a client given any answer returns schema-valid data or throws one of its own typed errors', async () => {
    const clients = {
      v1: api.client({ apiVersion: 'v1', retry: { retries: 0 } }),
      v2: api.client({ apiVersion: 'v2', retry: { retries: 0 } }),
    } as Record<ApiVersion, OrdersClient<ApiVersion>>;
    let returned = 0;
    await fc.assert(
      fc.asyncProperty(exchange, async ({ version, name, status, text }) => {
        api.server.handle((_request, response) => send(response, status, text));
        const success = status >= 200 && status < 300;
        let result: unknown;
        try {
          result = await calls[name].run(clients[version], version);
        } catch (error) {
          expect(isPrintOrderError(error), String(error)).toBe(true);
          if (success) expect(isResponseValidationError(error)).toBe(true);
          else expect(error).toMatchObject({ code: ERROR_CODES.http, status });
          return;
        }
        expect(success).toBe(true);
        expect(operations[name as OperationName].response[version].safeParse(result).success).toBe(true);
        returned++;
      }),
      { numRuns: 300 },
    );
    // Not a vacuous property: some near-valid answers did come back as data.
    expect(returned).toBeGreaterThan(0);
  });
});
