import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { redact } from '@print-contracts/client/kit';
import { type Exchange, type ForwardContext, forward } from './forwarder.js';
import { type FilterContext, filterRequest, parseBody } from './request-filter.js';
import { type SequenceItem, STATE_PATH, type StateSequence } from './state-endpoint.js';

/** A header on answers the proxy made up itself, so nobody mistakes them for the target's. */
export const PROXY_HEADER = 'x-contract-verifier';
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The loopback proxy Pact's verifier talks to: its provider URL and its state-change URL. */
export type ReplayProxy = Awaited<ReturnType<typeof startProxy>>;

interface ProxyOptions {
  readonly sequence: StateSequence;
  readonly filter: FilterContext;
  readonly forward: Omit<ForwardContext, 'source'>;
  /** Called for each request forwarded or refused. */
  readonly onExchange: (item: SequenceItem, exchange: Exchange) => void;
  /** Told of the verifier's own faults on a request (a bug, a ledger it cannot write): the run ends broken. */
  readonly broke?: (fault: unknown) => void;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      req.destroy();
      throw new RangeError('request body too large');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function answer(res: ServerResponse, status: number, body: unknown, own = true): void {
  const text = JSON.stringify(body);
  const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
  res.writeHead(status, own ? { ...headers, [PROXY_HEADER]: 'refused' } : headers);
  res.end(text);
}

/**
 * Starts the proxy of one replay: the state endpoint, else the request filter and the forwarder. On
 * close forwarded requests run to their end, so an accepted create still brings its uuid to the ledger.
 */
export async function startProxy(options: ProxyOptions) {
  const { sequence, onExchange } = options;
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const body = await readBody(req);
    if (req.method === 'POST' && (req.url ?? '/').split('?')[0] === STATE_PATH) {
      const result = sequence.answer(parseBody(body));
      if (result.status === 200) return answer(res, 200, result.values, false);
      return answer(res, result.status, { error: result.message });
    }
    const item = sequence.current;
    if (!item) {
      return answer(res, 421, {
        message: 'Refused by the contract verifier: no interaction is being replayed',
      });
    }
    const filtered = filterRequest(req, body, options.filter);
    if (filtered.kind === 'refuse') {
      onExchange(item, {
        version: options.forward.version,
        method: (req.method ?? 'GET').toUpperCase(),
        path: (req.url ?? '/').slice(0, 200),
        ms: 0,
        attempts: 0,
        credentials: 'refused',
        failure: filtered.reason,
        unavailable: false,
      });
      return answer(res, filtered.status, {
        message: `Refused by the contract verifier: ${filtered.reason}`,
      });
    }
    const source = `replay of "${item.description}"`;
    const { exchange, answer: answered } = await forward(filtered, { ...options.forward, source });
    onExchange(item, exchange);
    if (!answered) return answer(res, 503, { message: `Contract verifier proxy: ${exchange.failure}` });
    res.writeHead(answered.status, answered.headers);
    res.end(answered.body);
  };

  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const handled = handle(req, res).catch((error: unknown) => {
      // The verifier's own fault: Pact must not take the answer as the target's, nor the run as judged.
      options.broke?.(error);
      const message = redact(error instanceof Error ? error.message : String(error), options.forward.secrets);
      const item = sequence.current;
      if (item) {
        onExchange(item, {
          version: options.forward.version,
          method: (req.method ?? 'GET').toUpperCase(),
          path: (req.url ?? '/').slice(0, 200),
          ms: 0,
          attempts: 0,
          credentials: 'refused',
          failure: `the verifier broke on the request: ${message}`,
          unavailable: false,
          broke: true,
        });
      }
      if (res.headersSent) return void res.destroy();
      answer(res, 500, { error: `Contract verifier: ${message}` });
    });
    inFlight.add(handled);
    void handled.finally(() => inFlight.delete(handled));
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    stateUrl: `http://127.0.0.1:${port}${STATE_PATH}`,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
    },
  };
}
