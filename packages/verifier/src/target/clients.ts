import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApiVersion,
  type HttpError,
  isHttpError,
  isResponseValidationError,
  isTransportError,
  OrdersClient,
} from '@print-contracts/client';
import { Agent, type Dispatcher } from 'undici';
import { ExchangeRecorder } from '../record/recorder.js';
import type { CredentialRole, Target } from './target.js';
import type { Transport } from './transport.js';

/** Redirects a settling request follows, on the target's origin only. */
const SETTLE_REDIRECTS = 3;

/**
 * Orders clients per credential set and API version, sharing one connection pool and the run's
 * retry policy with the replay proxy: arranging, teardown and cleanup all use the target's public
 * API. Every request to the target through `dispatcher` is recorded by `recorder` (the HAR file,
 * the drift check).
 */
export class TargetClients {
  readonly target: Target;
  readonly dispatcher: Dispatcher;
  readonly recorder: ExchangeRecorder;
  readonly #agent: Agent;
  readonly #clients = new Map<string, OrdersClient<ApiVersion>>();
  readonly transport: Transport;
  /** The run's bound on each request (`--request-timeout`). */
  readonly timeoutMs: number;

  constructor(target: Target, timeoutMs: number, transport: Transport) {
    this.target = target;
    this.transport = transport;
    this.timeoutMs = timeoutMs;
    this.#agent = new Agent({
      keepAliveTimeout: 10_000,
      connections: 32,
      connect: { timeout: timeoutMs },
    });
    this.recorder = new ExchangeRecorder([target.baseUrl, target.controlOrigin]);
    this.dispatcher = this.#agent.compose(this.recorder.interceptor());
  }

  client(role: CredentialRole, version: ApiVersion): OrdersClient<ApiVersion> {
    return this.#client(role, version, 0);
  }

  /**
   * The client that cancels what the run created: it follows a redirect on the target's origin,
   * which a verdict never does, so that a vendor that moved its cancel still has it done.
   */
  settling(role: CredentialRole, version: ApiVersion): OrdersClient<ApiVersion> {
    return this.#client(role, version, SETTLE_REDIRECTS);
  }

  #client(role: CredentialRole, version: ApiVersion, followRedirects: number): OrdersClient<ApiVersion> {
    const key = `${role}:${version}:${followRedirects}`;
    let client = this.#clients.get(key);
    if (!client) {
      const credentials = this.target.credentials[role];
      if (!credentials) throw new TypeError('The target has no second credential set');
      client = new OrdersClient<ApiVersion>({
        baseUrl: this.target.baseUrl,
        userId: credentials.userId,
        secret: credentials.secret,
        apiVersion: version,
        timeoutMs: this.timeoutMs,
        retry: this.transport.retry,
        onRetry: this.transport.onRetry,
        dispatcher: this.dispatcher,
        followRedirects,
      });
      this.#clients.set(key, client);
    }
    return client;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}

/**
 * A request that got no answer (a lost connection, a timeout) and was not stopped by the run: the
 * target may have done it all the same, so what it changed is read back before anything is decided.
 */
export const unanswered = (error: unknown, signal: AbortSignal): boolean =>
  isTransportError(error) && error.failure !== 'aborted' && !signal.aborted;

/** Reads a settling read makes at most while the target's answer is unusable. */
const UNUSABLE_READS = 3;

/**
 * A 5xx that says nothing of the request: a server error, or a gateway's answer the transport
 * gave up retrying. Throttling (a 503 with `Retry-After`) the transport has waited out.
 */
export const serverError = (error: unknown): error is HttpError =>
  isHttpError(error) &&
  error.status >= 500 &&
  !(error.status === 503 && error.retryAfterSeconds !== undefined);

/** An answer a settling read cannot use: a 2xx that is not JSON (a maintenance page), or a server error. */
const unusable = (error: unknown) => isResponseValidationError(error) || serverError(error);

/**
 * A settling read, made again (up to 3 times, a little later each time) while the target answers
 * it with something unusable: what the run created is decided by the target's orders, not by one
 * bad answer. Any other failure is the caller's.
 */
export async function reading<T>(read: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      if (attempt >= UNUSABLE_READS || !unusable(error)) throw error;
      if (!(await sleep(250 * attempt, true, { signal }).catch(() => false))) throw error;
    }
  }
}
