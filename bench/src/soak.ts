import {
  type ApiVersion,
  type CreateOrderV2,
  exampleOrder,
  exampleOrderLine,
  OrdersClient,
} from '@print-contracts/client';

export interface SoakOptions {
  /** Base URL of the target (the sample API), ending in /api. */
  baseUrl: string;
  credentials: { userId: string; secret: string };
  /** Concurrent clients, each running create → wait → read → update → list → cancel. */
  clients: number;
  /** Total orders to run through their whole life; each costs about eight requests. */
  orders: number;
  apiVersion?: ApiVersion;
}

export interface SoakResult {
  requests: number;
  failures: string[];
  created: number;
  /** Orders read back as cancelled at the end: every created order must be here. */
  accountedFor: number;
  peakRssBytes: number;
  seconds: number;
}

const order = (i: number) =>
  exampleOrder('v2', {
    orderLines: [{ ...exampleOrderLine('v2'), externalId: `soak-${i}` }] as CreateOrderV2['orderLines'],
    reference: `soak ${i}`,
    testOrder: true,
  });

/**
 * Many clients create, read, update and cancel orders for a fixed number of orders (bounded
 * in count, loopback only), then every created order is read back: none may be missing or
 * left uncancelled. Peak memory of this process is sampled throughout.
 */
export async function runSoak(options: SoakOptions): Promise<SoakResult> {
  const client = new OrdersClient({
    baseUrl: options.baseUrl,
    ...options.credentials,
    apiVersion: 'v2',
    retry: { retries: 0 },
  });
  let peakRssBytes = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRssBytes = Math.max(peakRssBytes, process.memoryUsage().rss);
  }, 25);
  const failures: string[] = [];
  const uuids: string[] = [];
  let requests = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  const life = async (i: number) => {
    const { uuid } = await client.createOrder(order(i));
    uuids.push(uuid);
    const created = await client.waitForOrder(uuid, { intervalMs: 5, maxIntervalMs: 50, timeoutMs: 30_000 });
    await client.getOrder(created.id);
    const update = { reference: `soak ${i} updated` };
    await (i % 2 ? client.updateOrder(uuid, update) : client.updateOrderWithPost(created.id, update));
    await client.listOrders({ limit: 10 });
    await client.cancelOrder(uuid, 'soak test');
    requests += 6;
  };
  const worker = async () => {
    while (next < options.orders) {
      const i = next++;
      try {
        await life(i);
      } catch (error) {
        failures.push(`order ${i}: ${String(error)}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: options.clients }, worker));
    let accountedFor = 0;
    for (const uuid of uuids) {
      const read = await client.getOrder(uuid);
      requests++;
      if (read.status === 'cancelled') accountedFor++;
      else failures.push(`order ${uuid} is ${read.status}, not cancelled`);
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { requests, failures, created: uuids.length, accountedFor, peakRssBytes, seconds };
  } finally {
    clearInterval(sampler);
    await client.close();
  }
}
