import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { orderCreatedSchema, redact, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { PLACEHOLDER_CREDENTIALS } from '@print-contracts/consumer-contracts/vocabulary';
import type { Dispatcher } from 'undici';
import type { Ledger } from '../ledger/ledger.js';
import { liveRefusal } from '../plan/live-safety.js';
import { operationOf, pathBelowBase } from '../plan/operation-of.js';
import type { Target } from '../target/target.js';
import type { Exchange, ReplayItem } from './replay-item.js';
import { StateSequence } from './state-sequence.js';
import {
  describeIncompleteBody,
  describeTransportFailure,
  HOP_BY_HOP,
  IncompleteBodyError,
  redactBuffer,
} from './wire.js';

/** Where Pact posts its state-change calls: outside the API base path, so no contract path can collide. */
export const STATE_PATH = '/__verifier/provider-state';
/** A header on answers the proxy made up itself, so nobody mistakes them for the target's. */
export const PROXY_HEADER = 'x-contract-verifier';
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export interface ProxyContext {
  readonly target: Target;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
  readonly ledger: Ledger;
  readonly secrets: readonly string[];
  /** Called after each forwarded (or refused) request, for progress lines. */
  readonly onExchange?: (item: ReplayItem, exchange: Exchange) => void;
}

/** A loopback server for one shard: Pact's provider URL and its state-change URL. */
export interface ShardServer {
  readonly host: string;
  readonly port: number;
  readonly stateUrl: string;
  readonly sequence: StateSequence;
  close(): Promise<void>;
}

const USER_ID = USER_ID_HEADER.toLowerCase();
const SECRET = SECRET_HEADER.toLowerCase();

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        reject(new Error('request body too large'));
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown, own = true): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...(own ? { [PROXY_HEADER]: 'refused' } : {}),
  });
  res.end(text);
}

function parseJson(body: Buffer): unknown {
  if (body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch {
    return body.toString('utf8');
  }
}

/**
 * Starts the loopback proxy of one shard. Pact's verifier talks only to it: it swaps the
 * placeholder credentials of the contract for the real ones (so no secret ever passes
 * through Pact's configuration or logs), maps the contract's `/api` paths onto the target's
 * base path, records every order-creating request in the ledger before forwarding it, refuses
 * non-test creates in live mode, talks HTTPS to the target with undici, scrubs secrets from
 * the answers, and hosts the state-change endpoint that hands Pact the arranged ids.
 */
export async function startShardServer(
  items: readonly ReplayItem[],
  version: ReplayItem['planned']['version'],
  context: ProxyContext,
): Promise<ShardServer> {
  const sequence = new StateSequence(items);
  const targetUrl = new URL(context.target.baseUrl);
  const basePath = targetUrl.pathname.replace(/\/+$/, '');

  const onState = async (req: IncomingMessage, res: ServerResponse) => {
    const body = parseJson(await readBody(req)) as
      | { action?: unknown; state?: unknown; params?: unknown }
      | undefined;
    if (body?.action !== 'setup') return answer(res, 200, {}, false);
    const result = sequence.setup(body.state, body.params ?? {});
    if (result.status === 200) return answer(res, 200, result.values, false);
    return answer(res, result.status, { error: result.message });
  };

  const forward = async (req: IncomingMessage, res: ServerResponse, item: ReplayItem) => {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const [rawPath = '/', query] = (req.url ?? '/').split(/\?(.*)/s, 2);
    const below = pathBelowBase(rawPath);
    const record = (exchange: Omit<Exchange, 'ms' | 'method'>) => {
      const done = { ...exchange, method, ms: Math.round(performance.now() - started) };
      item.record.exchanges.push(done);
      context.onExchange?.(item, done);
    };
    const refuse = (status: number, failure: string) => {
      record({ path: rawPath, status: undefined, failure });
      answer(res, status, { message: `Refused by the contract verifier: ${failure}` });
    };

    if (below === undefined) return refuse(404, `${rawPath} lies outside the API base path`);
    if (method !== item.planned.interaction.method) {
      return refuse(
        421,
        `Pact sent ${method} while "${item.planned.interaction.description}" expects ${item.planned.interaction.method}`,
      );
    }
    const body = await readBody(req);
    const operation = operationOf(method, below);
    if (context.target.mode === 'live') {
      const refusal = liveRefusal(operation, parseJson(body));
      if (refusal) return refuse(403, refusal);
    }

    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name) || name === 'accept-encoding') continue;
      headers[name] = value;
    }
    if (headers[USER_ID] === PLACEHOLDER_CREDENTIALS.userId)
      headers[USER_ID] = context.target.credentials.main.userId;
    if (headers[SECRET] === PLACEHOLDER_CREDENTIALS.secret)
      headers[SECRET] = context.target.credentials.main.secret;

    const path = `${basePath}${below === '/' ? '' : below}${query !== undefined ? `?${query}` : ''}`;
    const ledgerKey =
      operation === 'createOrder'
        ? context.ledger.creating({
            target: context.target.baseUrl,
            embedded: context.target.kind === 'embedded',
            controlOrigin: undefined,
            credential: 'main',
            version,
            source: `replay of "${item.planned.interaction.description}"`,
          })
        : undefined;

    let status: number;
    let responseHeaders: Record<string, string | string[]> = {};
    let responseBody: Buffer;
    try {
      const response = await context.dispatcher.request({
        origin: targetUrl.origin,
        path,
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body.length > 0 ? body : undefined,
        headersTimeout: context.timeoutMs,
        bodyTimeout: context.timeoutMs,
      });
      status = response.statusCode;
      try {
        responseBody = Buffer.from(await response.body.arrayBuffer());
      } catch (error) {
        throw new IncompleteBodyError(error);
      }
      for (const [name, value] of Object.entries(response.headers)) {
        if (value === undefined || HOP_BY_HOP.has(name)) continue;
        responseHeaders[name] = Array.isArray(value)
          ? value.map((entry) => redact(entry, context.secrets))
          : redact(value, context.secrets);
      }
    } catch (error) {
      const failure = redact(
        error instanceof IncompleteBodyError
          ? describeIncompleteBody(error.cause)
          : describeTransportFailure(error),
        context.secrets,
      );
      if (ledgerKey) context.ledger.unresolved(ledgerKey, failure);
      record({ path, status: undefined, failure });
      answer(res, 502, { message: `Contract verifier proxy: ${failure}` });
      return;
    }

    if (ledgerKey) {
      const created =
        status >= 200 && status < 300 ? orderCreatedSchema.safeParse(parseJson(responseBody)) : undefined;
      if (created?.success) context.ledger.created(ledgerKey, created.data.uuid);
      else if (status >= 200 && status < 300)
        context.ledger.unresolved(ledgerKey, `answer ${status} without a uuid`);
      else context.ledger.close(ledgerKey, 'not-created', `status ${status}`);
    }
    responseBody = redactBuffer(responseBody, context.secrets);
    responseHeaders = { ...responseHeaders, 'content-length': String(responseBody.length) };
    record({ path, status, failure: undefined });
    res.writeHead(status, responseHeaders);
    res.end(responseBody);
  };

  const inFlight = new Set<Promise<void>>();
  const server = createServer((req, res) => {
    const handle = async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'POST' && path === STATE_PATH) return onState(req, res);
      const item = sequence.current;
      if (!item)
        return answer(res, 421, {
          message: 'Refused by the contract verifier: no interaction is being replayed',
        });
      return forward(req, res, item);
    };
    // The state endpoint must never answer 5xx: Pact retries those, and the sequence would slip.
    const handled = handle().catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = redact(error instanceof Error ? error.message : String(error), context.secrets);
      answer(res, 400, { error: `Contract verifier: ${message}` });
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
    sequence,
    // A request already forwarded runs to its end (bounded by the timeout), so a create the
    // target accepted still brings its uuid to the ledger, even when Pact was stopped.
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...inFlight]);
      server.closeAllConnections();
      await closed;
    },
  };
}
