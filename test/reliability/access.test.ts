import {
  API_VERSIONS,
  type ApiVersion,
  exampleOrder,
  isHttpError,
  OPERATION_NAMES,
  type OperationName,
  OrdersClient,
} from '@print-contracts/client';
import { type SampleApi, startSampleApi } from '@print-contracts/sample-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let api: SampleApi;
const clients: OrdersClient<ApiVersion>[] = [];

const client = (apiVersion: ApiVersion, userId: string, secret: string) => {
  const made = new OrdersClient({ baseUrl: api.url, userId, secret, apiVersion, retry: { retries: 0 } });
  clients.push(made);
  return made;
};

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'answered 2xx',
    (error: unknown) => (isHttpError(error) ? error.status : String(error)),
  );

/** Sends operation `name` for an order `id` with a valid body for the client's version. */
function call(c: OrdersClient<ApiVersion>, name: OperationName, id: number | string) {
  const inputs: Record<OperationName, Parameters<OrdersClient<ApiVersion>['send']>[1]> = {
    listOrders: { query: {} },
    getOrder: { id },
    createOrder: { body: exampleOrder(c.apiVersion, { testOrder: true }) },
    updateOrder: { id, body: { reference: 'changed' } },
    updateOrderWithPost: { id, body: { reference: 'changed' } },
    cancelOrder: { id, body: { reason: 'access test' } },
  };
  return c.send(name, inputs[name]);
}

beforeAll(async () => {
  api = await startSampleApi({ processingDelayMs: 0 });
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await api.close();
});

describe.each(API_VERSIONS)('the sample API in %s refuses', (version) => {
  it.each(OPERATION_NAMES)('%s without credentials or with a wrong secret, with 401', async (name) => {
    const [main] = api.credentials;
    if (!main) throw new Error('no credentials');
    const { orders } = await client(version, main.userId, main.secret).listOrders();
    const id = orders[0]?.id ?? 1;
    const wrongSecret = client(version, main.userId, `${main.secret}-wrong`);
    const unknownUser = client(version, 'nobody-at-all', main.secret);
    // An empty credential cannot be configured on the client, so the request goes out raw.
    const anonymous = await fetch(`${api.url}/orders`, { method: 'GET' });
    expect(await statusOf(call(wrongSecret, name, id))).toBe(401);
    expect(await statusOf(call(unknownUser, name, id))).toBe(401);
    expect(anonymous.status).toBe(401);
  });
});

describe.each(API_VERSIONS)('tenant isolation in %s', (version) => {
  it("keeps credential set A from reading, listing, updating or cancelling B's orders", async () => {
    const [a, b] = api.credentials;
    if (!a || !b) throw new Error('the sample API needs two credential sets');
    const clientA = client(version, a.userId, a.secret);
    const clientB = client(version, b.userId, b.secret);
    const { uuid } = await clientB.createOrder(exampleOrder(version, { testOrder: true }) as never);
    const order = await clientB.waitForOrder(uuid);

    for (const ref of [order.id, uuid]) {
      for (const name of ['getOrder', 'updateOrder', 'updateOrderWithPost', 'cancelOrder'] as const) {
        expect(await statusOf(call(clientA, name, ref)), `${name} ${ref}`).toBe(404);
      }
    }
    const seenByA = [];
    for await (const summary of clientA.listAllOrders()) seenByA.push(summary.id);
    expect(seenByA).not.toContain(order.id);
    // Nothing A tried changed B's order.
    const after = await clientB.getOrder(uuid);
    expect(after.status).toBe(order.status);
    expect(after.reference).toBe(order.reference);
  });
});
