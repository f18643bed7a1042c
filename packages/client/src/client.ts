import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import type { z } from 'zod';
import { HttpError, isRedirect } from './errors/http-error.js';
import { type FieldIssue, toFieldIssues } from './errors/issues.js';
import { OrderCreationFailedError } from './errors/order-creation-failed-error.js';
import { OrderWaitTimeoutError } from './errors/order-wait-timeout-error.js';
import { RequestValidationError } from './errors/request-validation-error.js';
import { ResponseValidationError } from './errors/response-validation-error.js';
import { TransportError } from './errors/transport-error.js';
import {
  expandPath,
  type HttpMethod,
  type OperationDefinition,
  type OperationName,
  operations,
  queryKeys,
  type RequestBody,
  type ResponseBody,
} from './operations.js';
import { type OrdersClientOptions, optionsFromEnv, type ResolvedOptions, resolveOptions } from './options.js';
import { decodeContent, readBody } from './read-body.js';
import { redact, redactValue } from './redact.js';
import { parseRetryAfter, withRetries } from './retry.js';
import { bodyText, vendorMessageOf } from './schemas/error-body.js';
import { type ListQuery, listQuerySchema, type OrderRef, orderRefSchema } from './schemas/order-request.js';
import { hopeless, notConnected, transportFailure } from './transport-failures.js';
import {
  type ApiVersion,
  LIST_LIMIT_MAX,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from './vendor.js';

export interface CallOptions {
  signal?: AbortSignal;
  /**
   * Epoch milliseconds no wait between attempts may reach past (default: `retry.budgetMs` from
   * the call), e.g. the deadline of the order the call is about.
   */
  deadline?: number;
  /** `false` sends the body as given, unchecked: for probing how the vendor refuses bad input. */
  validate?: boolean;
}

export interface SendInput {
  id?: OrderRef;
  query?: ListQuery;
  body?: unknown;
}

export interface WaitOptions {
  /** Give up after this long; default 6 minutes (the vendor processes within 5). */
  timeoutMs?: number;
  /** First pause between polls, doubled up to `maxIntervalMs`. */
  intervalMs?: number;
  maxIntervalMs?: number;
  signal?: AbortSignal;
  /**
   * Answers the order as the target wrote it, its shape unchecked (`sendUnchecked`): for a caller
   * that needs only to know it is readable, and leaves its shape to a contract to judge.
   */
  unchecked?: boolean;
}

/** The vendor's 404 for an order whose creation failed says so ("… failed"); until then it only says "not found". */
const CREATION_FAILED = /fail/i;

const lower = (name: string) => name.toLowerCase();

/**
 * A client for one credential set and one API version. It validates what it sends and
 * what it receives against the operations table, retries by its `RetryPolicy` (a create,
 * update or cancel only on an answer or failure that proves nothing was processed), and never
 * puts the secret in an error.
 */
export class OrdersClient<V extends ApiVersion = 'v2'> {
  readonly apiVersion: V;
  readonly baseUrl: string;
  readonly #options: ResolvedOptions<V>;
  readonly #dispatcher: Dispatcher;
  readonly #ownsDispatcher: boolean;
  readonly #headers: Record<string, string>;

  constructor(options: OrdersClientOptions<V>) {
    this.#options = resolveOptions(options);
    this.apiVersion = this.#options.apiVersion;
    this.baseUrl = `${this.#options.origin}${this.#options.basePath}`;
    this.#ownsDispatcher = options.dispatcher === undefined;
    this.#dispatcher =
      options.dispatcher ??
      new Agent({ keepAliveTimeout: 10_000, connect: { timeout: this.#options.timeoutMs } });
    const { versionHeader } = this.#options;
    const reserved = new Set(
      [USER_ID_HEADER, SECRET_HEADER, versionHeader ? versionHeader.name : ''].map(lower),
    );
    const extra = Object.entries(this.#options.headers).filter(([name]) => !reserved.has(lower(name)));
    this.#headers = {
      ...Object.fromEntries(extra),
      [USER_ID_HEADER]: this.#options.userId,
      [SECRET_HEADER]: this.#options.secret,
      ...(versionHeader
        ? { [versionHeader.name]: versionHeaderValue(this.apiVersion, versionHeader.template) }
        : {}),
    };
  }

  /** A client whose base URL and credentials come from the environment, overridden by `options`. */
  static fromEnv<V extends ApiVersion = 'v2'>(
    options: Partial<OrdersClientOptions<V>> = {},
    env?: Readonly<Record<string, string | undefined>>,
  ): OrdersClient<V> {
    return new OrdersClient<V>({ ...optionsFromEnv(env), ...options } as OrdersClientOptions<V>);
  }

  /** One page of orders: `limit` at most 50, `offset`, and one `status` to filter on. */
  listOrders(query: ListQuery = {}, options?: CallOptions): Promise<ResponseBody<'listOrders', V>> {
    return this.send('listOrders', { query }, options);
  }

  /**
   * Every order, page by page, until the empty page the vendor documents as the end ("finally you
   * will receive an empty result set"). Each page starts after the orders listed so far, so a
   * vendor that lists fewer than asked is still read in full; neither a short page nor `count`
   * (page size or total: undocumented) ends the walk. A page that repeats the one before does: a
   * list that ignores `offset` (a sample-data set answers the same whatever it is asked) would
   * repeat its page for ever.
   */
  async *listAllOrders(
    query: Omit<ListQuery, 'offset'> = {},
    options?: CallOptions,
  ): AsyncGenerator<ResponseBody<'listOrders', V>['orders'][number]> {
    const limit = query.limit ?? LIST_LIMIT_MAX;
    // Even unvalidated, a page size below 1 would never advance the offset.
    if (!Number.isInteger(limit) || limit < 1) {
      throw new RequestValidationError('listOrders', this.apiVersion, [
        { path: 'query.limit', message: 'must be a whole number of at least 1' },
      ]);
    }
    let previous = '';
    for (let offset = 0; ; ) {
      const { orders } = await this.listOrders({ ...query, limit, offset }, options);
      const ids = orders.map((order) => order.id).join(',');
      if (orders.length === 0 || ids === previous) return;
      previous = ids;
      yield* orders;
      offset += orders.length;
    }
  }

  /** One order, by numeric id or uuid. */
  getOrder(id: OrderRef, options?: CallOptions): Promise<ResponseBody<'getOrder', V>> {
    return this.send('getOrder', { id }, options);
  }

  /** Creates an order; the vendor processes it later, so only its uuid comes back (see `waitForOrder`). */
  createOrder(
    body: RequestBody<'createOrder', V>,
    options?: CallOptions,
  ): Promise<ResponseBody<'createOrder', V>> {
    return this.send('createOrder', { body }, options);
  }

  /** Updates an order with PUT, sending the whole payload or only what changes. */
  updateOrder(
    id: OrderRef,
    body: RequestBody<'updateOrder', V>,
    options?: CallOptions,
  ): Promise<ResponseBody<'updateOrder', V>> {
    return this.send('updateOrder', { id, body }, options);
  }

  /** Updates an order with POST on its path, which the vendor treats exactly as PUT. */
  updateOrderWithPost(
    id: OrderRef,
    body: RequestBody<'updateOrderWithPost', V>,
    options?: CallOptions,
  ): Promise<ResponseBody<'updateOrderWithPost', V>> {
    return this.send('updateOrderWithPost', { id, body }, options);
  }

  /** Cancels an order with DELETE and a reason. An order in production cannot be cancelled (500). */
  cancelOrder(id: OrderRef, reason: string, options?: CallOptions): Promise<ResponseBody<'cancelOrder', V>> {
    return this.send('cancelOrder', { id, body: { reason } }, options);
  }

  /**
   * Polls `GET /orders/{uuid}` until the asynchronously created order is readable. Throws
   * `OrderCreationFailedError` when the vendor says creation failed, and
   * `OrderWaitTimeoutError` after `timeoutMs`.
   */
  waitForOrder(
    uuid: string,
    options?: WaitOptions & { unchecked?: false },
  ): Promise<ResponseBody<'getOrder', V>>;
  waitForOrder(uuid: string, options: WaitOptions & { unchecked: true }): Promise<unknown>;
  async waitForOrder(uuid: string, options: WaitOptions = {}): Promise<unknown> {
    const { timeoutMs = 360_000, intervalMs = 25, maxIntervalMs = 2_000, signal, unchecked } = options;
    const started = Date.now();
    let pause = intervalMs;
    let lastMessage: string | undefined;
    /** The last read was throttled: the order was not shown missing, only not read in time. */
    let throttled = false;
    for (;;) {
      try {
        const read = { signal, deadline: started + timeoutMs };
        return await (unchecked
          ? this.sendUnchecked('getOrder', { id: uuid }, read)
          : this.getOrder(uuid, read));
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        // Throttled past what the retry budget allowed, near the bound: the order is not readable in time.
        throttled = error.status === 429 || (error.status === 503 && error.retryAfterSeconds !== undefined);
        if (error.status !== 404 && !throttled) throw error;
        if (error.status === 404) lastMessage = error.vendorMessage;
        // The docs name no key for the message, so the whole answer is searched.
        if (error.status === 404 && CREATION_FAILED.test(bodyText(error.body)))
          throw new OrderCreationFailedError(uuid, lastMessage ?? bodyText(error.body));
      }
      const waited = Date.now() - started;
      if (waited + pause > timeoutMs) throw new OrderWaitTimeoutError(uuid, waited, lastMessage, throttled);
      // A caller's abort during this wait is a `TransportError`, as it is during a request.
      await sleep(pause, undefined, { signal }).catch((cause: unknown) => {
        const path = `${this.#options.basePath}${expandPath(operations.getOrder.path, uuid)}`;
        throw new TransportError('aborted', 'GET', path, { cause });
      });
      pause = Math.min(maxIntervalMs, pause * 2);
    }
  }

  /**
   * Sends any operation of the table: validates the input for this client's version,
   * retries by the policy, and validates the answer.
   */
  async send<N extends OperationName>(
    name: N,
    input: SendInput = {},
    options: CallOptions = {},
  ): Promise<ResponseBody<N, V>> {
    const { operation, path, status, json } = await this.#call(name, input, options, true);
    const result = operation.response[this.apiVersion].safeParse(json);
    if (!result.success)
      throw this.#invalidAnswer(operation, path, status, toFieldIssues(result.error.issues));
    return result.data as ResponseBody<N, V>;
  }

  /**
   * Sends like `send` (same transport and retries) but answers the JSON as the target wrote it,
   * unchecked: for looking at what an answer holds when its shape is the contract's to judge.
   */
  async sendUnchecked(
    name: OperationName,
    input: SendInput = {},
    options: CallOptions = {},
  ): Promise<unknown> {
    return (await this.#call(name, input, options, false)).json;
  }

  /** Closes the connections of the dispatcher the client created; a given dispatcher is left open. */
  async close(): Promise<void> {
    if (this.#ownsDispatcher) await this.#dispatcher.close();
  }

  async #call(name: OperationName, input: SendInput, options: CallOptions, checkBody: boolean) {
    const operation: OperationDefinition = operations[name];
    const validate = options.validate ?? this.#options.validateRequests;
    let id = input.id;
    if (operation.path === '/orders/{id}' && validate) id = this.#check(name, orderRefSchema, id, ['id']);
    let path = `${this.#options.basePath}${expandPath(operation.path, id)}`;
    if (operation.query && input.query) {
      const query = validate ? this.#check(name, listQuerySchema, input.query, ['query']) : input.query;
      const values = query as Readonly<Record<string, unknown>>;
      const pairs = queryKeys(operation)
        .filter((key) => values[key] !== undefined)
        .map((key) => `${key}=${encodeURIComponent(String(values[key]))}`);
      if (pairs.length > 0) path += `?${pairs.join('&')}`;
    }
    let body = input.body;
    if (operation.body && validate && checkBody)
      body = this.#check(name, operation.body[this.apiVersion], body);
    const text = operation.body ? JSON.stringify(body) : undefined;
    return { operation, path, ...(await this.#exchange(operation, path, text, options)) };
  }

  #check<S extends z.ZodType>(
    name: OperationName,
    schema: S,
    value: unknown,
    prefix: string[] = [],
  ): z.output<S> {
    const result = schema.safeParse(value);
    if (result.success) return result.data;
    throw new RequestValidationError(name, this.apiVersion, toFieldIssues(result.error.issues, prefix));
  }

  async #exchange(
    operation: OperationDefinition,
    path: string,
    body: string | undefined,
    options: CallOptions,
  ): Promise<{ status: number; json: unknown }> {
    const { method } = operation;
    const { signal, deadline } = options;
    const { last, aborted } = await withRetries(
      async () => {
        try {
          const response = await this.#once(method, path, body, signal);
          const { headers } = response;
          const retryAfterSeconds = parseRetryAfter(headers['retry-after'], Date.now(), headers.date);
          return { answered: true, status: response.status, retryAfterSeconds, value: response } as const;
        } catch (error) {
          return { answered: false, unsent: notConnected(error), hopeless: hopeless(error), error } as const;
        }
      },
      { method, path, policy: this.#options.retry, deadline, signal, onRetry: this.#options.onRetry },
    );
    if (aborted) throw new TransportError('aborted', method, path, { cause: signal?.reason });
    if (!last.answered) {
      const cause = safeCause(last.error, [this.#options.secret]);
      throw new TransportError(transportFailure(last.error, signal), method, path, { cause });
    }
    const response = last.value;
    if (response.status >= 200 && response.status < 300) {
      return { status: response.status, json: this.#parseSuccess(operation, path, response) };
    }
    throw this.#httpError(method, path, response);
  }

  async #once(method: HttpMethod, path: string, body: string | undefined, signal: AbortSignal | undefined) {
    const headers =
      body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' };
    let response: Dispatcher.ResponseData;
    for (let at = path, hops = 0; ; hops++) {
      response = await this.#dispatcher.request({
        origin: this.#options.origin,
        path: at,
        method,
        headers,
        body,
        signal,
        headersTimeout: this.#options.timeoutMs,
        bodyTimeout: this.#options.timeoutMs,
      });
      const next =
        hops < this.#options.followRedirects ? this.#redirected(method, path, at, response) : undefined;
      if (next === undefined) break;
      await response.body.dump();
      at = next;
    }
    const raw = await readBody(response.body, this.#options.timeoutMs);
    // As undici's `text()`: UTF-8, a byte order mark dropped (also where the coding did not decode).
    const text = new TextDecoder().decode(decodeContent(raw, response.headers['content-encoding']) ?? raw);
    return { status: response.statusCode, headers: response.headers, text };
  }

  /**
   * Where a redirect the client follows points (path and query), or undefined: on the base URL's
   * origin, and for a change only to the same resource (its path ends as `path` does below the base
   * path), so that a redirect cannot turn a cancel of one order into a cancel of another.
   */
  #redirected(
    method: HttpMethod,
    path: string,
    at: string,
    { statusCode, headers }: Dispatcher.ResponseData,
  ) {
    const location = [headers.location].flat()[0];
    if (!isRedirect(statusCode) || !location || (statusCode === 303 && method !== 'GET')) return undefined;
    const url = URL.parse(location, `${this.#options.origin}${at}`);
    if (url?.origin !== this.#options.origin) return undefined;
    const resource = (path.split('?')[0] ?? '').slice(this.#options.basePath.length);
    if (method !== 'GET' && !url.pathname.endsWith(resource)) return undefined;
    return `${url.pathname}${url.search}`;
  }

  /**
   * The JSON of a 2xx answer. An answer that is not JSON is an error, unless the operation's
   * schema reads no shape at all (an update, whose answer the vendor does not document): then
   * its text, or nothing for an empty body, is the result.
   */
  #parseSuccess(
    operation: OperationDefinition,
    path: string,
    response: { status: number; text: string },
  ): unknown {
    try {
      return JSON.parse(response.text);
    } catch {
      const text = response.text.trim() === '' ? undefined : response.text;
      if (operation.response[this.apiVersion].safeParse(text).success) return text;
      throw this.#invalidAnswer(operation, path, response.status, [], true);
    }
  }

  #invalidAnswer(
    { method }: OperationDefinition,
    path: string,
    status: number,
    issues: FieldIssue[],
    notJson = false,
  ) {
    return new ResponseValidationError({
      method,
      path,
      status,
      apiVersion: this.apiVersion,
      issues,
      notJson,
    });
  }

  #httpError(
    method: HttpMethod,
    path: string,
    response: { status: number; headers: Dispatcher.ResponseData['headers']; text: string },
  ): HttpError {
    let body: unknown;
    try {
      body = redactValue(JSON.parse(response.text) as unknown, [this.#options.secret]);
    } catch {
      body = redact(response.text, [this.#options.secret]); // Not JSON: the text, redacted.
    }
    return new HttpError({
      status: response.status,
      method,
      path,
      vendorMessage: vendorMessageOf(body),
      body,
      retryAfterSeconds: parseRetryAfter(response.headers['retry-after'], Date.now(), response.headers.date),
      location: isRedirect(response.status)
        ? redact([response.headers.location].flat()[0] ?? '', [this.#options.secret]) || undefined
        : undefined,
    });
  }
}

/** Creates a client; see `OrdersClientOptions`. */
export function createOrdersClient<V extends ApiVersion = 'v2'>(
  options: OrdersClientOptions<V>,
): OrdersClient<V> {
  return new OrdersClient(options);
}

/**
 * undici's parser errors keep the bytes that failed to parse, which may echo a request header:
 * such a cause is replaced by a copy with the secret redacted.
 */
function safeCause(error: unknown, secrets: readonly string[]): unknown {
  if (!mentions(error, secrets)) return error;
  const { name, message, code } = (error ?? {}) as { name?: unknown; message?: unknown; code?: unknown };
  const copy = new Error(redact(String(message ?? ''), secrets));
  copy.name = redact(String(name ?? 'Error'), secrets);
  return Object.assign(copy, { code });
}

/** Whether a string, or a Buffer or own property (a few levels down), holds a secret in any form `redact` knows. */
function mentions(value: unknown, secrets: readonly string[], depth = 0): boolean {
  if (typeof value === 'string') return redact(value, secrets) !== value;
  if (Buffer.isBuffer(value)) {
    return (
      mentions(value.toString('utf8'), secrets, depth) || mentions(value.toString('latin1'), secrets, depth)
    );
  }
  if (value === null || typeof value !== 'object' || depth > 3) return false;
  return Object.getOwnPropertyNames(value).some((key) =>
    mentions((value as Record<string, unknown>)[key], secrets, depth + 1),
  );
}
