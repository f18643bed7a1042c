import { OrdersClient } from '@print-contracts/client';
import type { SampleApi } from '@print-contracts/sample-api';

/** Every order each credential set of the sample API holds, with its status. */
export async function ordersOf(api: SampleApi): Promise<{ userId: string; id: number; status: string }[]> {
  const found: { userId: string; id: number; status: string }[] = [];
  for (const credentials of api.credentials) {
    const client = new OrdersClient({ baseUrl: api.url, ...credentials, apiVersion: 'v2' });
    try {
      for await (const order of client.listAllOrders()) {
        found.push({ userId: credentials.userId, id: order.id, status: order.status });
      }
    } finally {
      await client.close();
    }
  }
  return found;
}
