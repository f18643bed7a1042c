import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OrdersClient } from '@print-contracts/client';
import { Agent, request } from 'undici';
import type { BenchRow } from './results.js';
import { round, sideBySide, throughput } from './stats.js';

/** An order detail as the vendor documents it; the same bytes for every request. */
const ORDER = JSON.stringify({
  id: 1001,
  number: 'DDB1001001',
  status: 'in-progress',
  date: '2026-11-02T10:15:00+01:00',
  lines: [
    {
      id: '10004274-3',
      description: 'Flyers A5, 135 g gloss, 250 pieces',
      price: 41.5,
      deliveryMethod: 'Home or work address',
      deliveryDate: '2026-11-06',
      revisedDeliveryDate: null,
      productCode: 'flyers-a5-135g-gloss',
      beforeDelivery: null,
      vatAmount: 8.72,
      vatPercentage: 21,
      quantity: 250,
      addressInfo: null,
      status: 'in-production',
      shipmentInfo: null,
      customerDiscount: { discountAmount: 2.5, discountTaxAmount: 0.53 },
      shippingCost: 0,
      externalId: null,
    },
  ],
  deliveryAddress: 55001,
  reference: 'bench',
  poNumber: null,
  vatAmount: 8.72,
  uuid: '6f1c2a3b-4d5e-4f60-8a71-b2c3d4e5f607',
  total: 50.22,
});

/** The client's GET of one order (with schema validation) against raw `undici.request` on the same server. */
export async function benchClientThroughput(runs: number, requests: number): Promise<BenchRow[]> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ORDER) });
    res.end(ORDER);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000 });
  const client = new OrdersClient({
    baseUrl: `${origin}/api`,
    userId: 'bench',
    secret: 'bench-secret',
    dispatcher,
  });
  const headers = {
    'User-ID': 'bench',
    'API-Secret': 'bench-secret',
    Accept: 'application/vnd.printdeal-api.v2',
  };
  const raw = async () => {
    const response = await request(`${origin}/api/orders/1001`, { dispatcher, headers });
    return response.body.json();
  };
  const rows: BenchRow[] = [];
  try {
    for (const concurrency of [1, 16]) {
      await throughput(500, concurrency, () => client.getOrder(1001)); // warm-up
      const measured = await sideBySide(
        runs,
        () => throughput(requests, concurrency, () => client.getOrder(1001)),
        () => throughput(requests, concurrency, raw),
      );
      rows.push({
        area: 'client',
        what: `getOrder, ${concurrency === 1 ? 'sequential' : `${concurrency} concurrent`}`,
        unit: 'req/s',
        value: round(measured.subject, 0),
        reference: { what: 'raw undici.request + JSON.parse', value: round(measured.reference, 0) },
        ratio: round(measured.ratio),
        budget: '≥ 0.8× reference',
        met: measured.ratio >= 0.8,
        note: `median of ${runs} rounds of ${requests} requests each, alternating with the reference, one server for both`,
      });
    }
  } finally {
    await dispatcher.close();
    await new Promise((resolve) => server.close(resolve));
  }
  return rows;
}
