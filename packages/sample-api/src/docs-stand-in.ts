import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  API_BASE_PATH,
  OPERATION_NAMES,
  type OperationName,
  SECRET_HEADER,
  USER_ID_HEADER,
} from '@print-contracts/client';
import { VENDOR_EXAMPLES } from '@print-contracts/client/kit';
import { type CredentialSet, DEMO_CREDENTIALS } from './credentials.js';
import { route } from './router.js';

/** A running stand-in that answers only what the vendor's docs show. */
export interface DocsStandIn {
  /** Base URL ending in `/api`. */
  readonly url: string;
  /** How many requests of each operation it answered, for tests that count. */
  readonly answered: Readonly<Record<OperationName, number>>;
  close(): Promise<void>;
}

/**
 * The documented answer per operation. The docs document no update answer; the stand-in
 * answers an update as a read, with the order, the only documented body about one order.
 */
const ANSWERS: Readonly<Record<OperationName, unknown>> = {
  listOrders: VENDOR_EXAMPLES.orderList.body,
  getOrder: VENDOR_EXAMPLES.orderDetail.body,
  createOrder: VENDOR_EXAMPLES.orderCreated.body,
  updateOrder: VENDOR_EXAMPLES.orderDetail.body,
  updateOrderWithPost: VENDOR_EXAMPLES.orderDetail.body,
  cancelOrder: VENDOR_EXAMPLES.orderCancelled.body,
};

/**
 * Starts a loopback server that answers every request with the vendor's documented example
 * body for its operation, whatever the id, the query or the body: the same order for any id,
 * the same uuid for any create, success for any update or cancel. It is what a sample-data
 * credential set may look like ("every endpoint answers with sample data"), and the ground
 * truth against which the kit must raise no false alarm. It checks only that the credential
 * headers match a set (the docs: "otherwise your request will fail"); a refusal, which the
 * docs give no body for, is an empty 401. Status codes are 200: the docs give none.
 */
export async function startDocsStandIn(
  options: { credentials?: readonly CredentialSet[] } = {},
): Promise<DocsStandIn> {
  const credentials = options.credentials ?? DEMO_CREDENTIALS;
  const answered = Object.fromEntries(OPERATION_NAMES.map((name) => [name, 0])) as Record<
    OperationName,
    number
  >;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const userId = req.headers[USER_ID_HEADER.toLowerCase()];
    const secret = req.headers[SECRET_HEADER.toLowerCase()];
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const found = route(req.method ?? 'GET', path);
    const known = credentials.some((set) => set.userId === userId && set.secret === secret);
    const status = !known ? 401 : found.kind !== 'operation' ? 404 : 200;
    if (status !== 200 || found.kind !== 'operation') {
      res.writeHead(status, { 'content-length': '0' });
      res.end();
      return;
    }
    answered[found.name]++;
    const body = JSON.stringify(ANSWERS[found.name]);
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  };

  const server = createServer(handle);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${API_BASE_PATH}`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
