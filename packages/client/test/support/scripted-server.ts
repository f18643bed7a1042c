import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { type ApiVersion, OrdersClient, type OrdersClientOptions } from '../../src/index.js';
import { SECRET, USER_ID } from './fixtures.js';

/** One request as the server received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/api/orders?limit=10`. */
  path: string;
  /** Lower-cased by node:http. */
  headers: IncomingHttpHeaders;
  /** The raw body; '' when there was none. */
  body: string;
}

/** Answers one request; it may also leave it unanswered or break its socket. */
export type Handler = (request: RecordedRequest, response: ServerResponse, raw: IncomingMessage) => void;

/**
 * A node:http server on 127.0.0.1 and an ephemeral port whose answers each test scripts. It
 * records every request, and counts the TCP connections opened, so a test can tell that
 * nothing was sent or that a connection was reused.
 */
export class ScriptedServer {
  readonly requests: RecordedRequest[] = [];
  /** Connections opened since the last `reset()`. */
  connections = 0;
  readonly #server: Server;
  readonly #open = new Set<Socket>();
  readonly #waiters = new Set<() => void>();
  #handler: Handler = reply(500, { message: 'no answer scripted for this test' });
  #origin = '';

  constructor() {
    this.#server = createServer((raw, response) => {
      const chunks: Buffer[] = [];
      raw.on('data', (chunk: Buffer) => chunks.push(chunk));
      raw.on('end', () => {
        const request: RecordedRequest = {
          method: raw.method ?? '',
          path: raw.url ?? '',
          headers: raw.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        this.requests.push(request);
        this.#handler(request, response, raw);
        for (const waiter of [...this.#waiters]) waiter();
      });
    });
    this.#server.on('connection', (socket: Socket) => {
      this.connections++;
      this.#open.add(socket);
      socket.on('close', () => this.#open.delete(socket));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    const { port } = this.#server.address() as AddressInfo;
    this.#origin = `http://127.0.0.1:${port}`;
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return this.#origin;
  }

  /** The base URL a client is given: the origin and `/api`, like the vendor's. */
  get baseUrl(): string {
    return `${this.#origin}/api`;
  }

  /** Connections open right now. */
  get openConnections(): number {
    return this.#open.size;
  }

  /** Answers every following request with `handler`. */
  handle(handler: Handler): void {
    this.#handler = handler;
  }

  /** Request number `index` (0-based); fails the test when it never came. */
  request(index = 0): RecordedRequest {
    const request = this.requests[index];
    if (!request) throw new Error(`the server received ${this.requests.length} requests, not ${index + 1}`);
    return request;
  }

  /** Resolves once `count` requests have arrived and been handed to the handler. */
  requestCount(count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        if (this.requests.length < count) return;
        this.#waiters.delete(check);
        resolve();
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** Forgets the requests and connections seen so far, and the scripted answer. */
  reset(): void {
    this.requests.length = 0;
    this.connections = 0;
    this.#handler = reply(500, { message: 'no answer scripted for this test' });
  }

  /** Closes every open connection, also those a test left waiting for an answer. */
  dropConnections(): void {
    for (const socket of this.#open) socket.destroy();
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      this.#server.close((error) => (error ? reject(error) : resolve())),
    );
  }
}

/** Writes `status` and `body`: JSON unless it is a string, which goes as it is. */
export function send(
  response: ServerResponse,
  status: number,
  body?: unknown,
  headers: Record<string, string> = {},
): void {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' ? 'text/plain' : 'application/json';
  response.writeHead(status, { 'content-type': type, ...headers });
  response.end(text);
}

/** Answers every request with `status` and `body` (see `send`). */
export function reply(status: number, body?: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => send(response, status, body, headers);
}

/** The n-th request gets the n-th handler; the last one answers every request after that. */
export function inSequence(...handlers: Handler[]): Handler {
  let next = 0;
  return (request, response, raw) => {
    const handler = handlers[Math.min(next++, handlers.length - 1)];
    if (!handler) throw new Error('inSequence needs at least one handler');
    handler(request, response, raw);
  };
}

/** Leaves the request unanswered: the client's timeout or abort has to end it. */
export const neverAnswer: Handler = () => {};

/** Closes the connection without answering. */
export const dropConnection: Handler = (_request, _response, raw) => {
  raw.socket.destroy();
};

/** Sends the status line, headers and half of a promised body, then closes the connection. */
export const truncateBody: Handler = (_request, _response, raw) => {
  raw.socket.end('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"count":');
};

export type TestClientOptions<V extends ApiVersion> = Partial<OrdersClientOptions<V>>;

/**
 * Starts one scripted server for the file (closed in afterAll), resets it before each test,
 * and closes every client a test made after it. `client()` points a client at the server
 * with the test credentials and a quick retry backoff.
 */
export function useScriptedServer() {
  const server = new ScriptedServer();
  const clients: OrdersClient<ApiVersion>[] = [];
  beforeAll(() => server.start());
  beforeEach(() => server.reset());
  afterEach(async () => {
    server.dropConnections();
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => server.close());

  function client<V extends ApiVersion = 'v2'>(options: TestClientOptions<V> = {}): OrdersClient<V> {
    const made = new OrdersClient<V>({
      baseUrl: server.baseUrl,
      userId: USER_ID,
      secret: SECRET,
      timeoutMs: 5_000,
      ...options,
      retry: { baseDelayMs: 1, ...options.retry },
    });
    clients.push(made as unknown as OrdersClient<ApiVersion>);
    return made;
  }

  return { server, client };
}
