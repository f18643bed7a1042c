import { setTimeout as sleep } from 'node:timers/promises';
import {
  type ApiVersion,
  describeIncompleteBody,
  describeTransportFailure,
  notConnected,
  orderCreatedSchema,
  parseRetryAfter,
  redact,
  redactBuffer,
} from '@print-contracts/client';
import type { Dispatcher } from 'undici';
import { IncompleteBodyError, isIncompleteBodyError } from '../../errors/incomplete-body-error.js';
import type { Ledger } from '../../ledger/ledger.js';
import type { Target } from '../../target/target.js';
import { HOP_BY_HOP } from '../../target/wire.js';
import { type Filtered, parseBody } from './request-filter.js';

/** How the proxy rides out a target that is slow to take requests. */
export interface ForwardRetry {
  /** Further attempts after the first. */
  readonly attempts: number;
  /** First pause, doubled each attempt, when the target names none. */
  readonly baseDelayMs: number;
  /** Longest pause; a `Retry-After` above it ends the retries at once. */
  readonly maxDelayMs: number;
}

export const FORWARD_RETRY: ForwardRetry = { attempts: 4, baseDelayMs: 500, maxDelayMs: 30_000 };

/** After this many requests given up in a row, the target counts as down: no more waiting. */
const DOWN_AFTER = 3;

/** Whether the target still answers, shared by every request of a run. */
export class Availability {
  #givenUp = 0;
  get down(): boolean {
    return this.#givenUp >= DOWN_AFTER;
  }
  answered(): void {
    this.#givenUp = 0;
  }
  gaveUp(): void {
    this.#givenUp++;
  }
}

/** One request the proxy forwarded (or refused), as the report and the version findings read it. */
export interface Exchange {
  readonly version: ApiVersion;
  readonly method: string;
  /** Path on the target, below its origin. */
  readonly path: string;
  readonly status: number | undefined;
  readonly ms: number;
  readonly attempts: number;
  /** `real`: it carried a real credential set; `refused`: none or a wrong one, on purpose. */
  readonly credentials: 'real' | 'refused';
  /** Why no answer of the target reached Pact: a safety refusal, or the target unavailable. */
  readonly failure: string | undefined;
  /** The target stayed unavailable (429, 503 or no connection) after the retries. */
  readonly unavailable: boolean;
  /** The answer's `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers. */
  readonly deprecation: string | undefined;
  readonly sunset: string | undefined;
}

/** An exchange without an answer, unless `fields` say otherwise. */
export const exchangeOf = (
  fields: Pick<Exchange, 'version' | 'method' | 'path' | 'ms' | 'attempts' | 'credentials'> &
    Partial<Exchange>,
): Exchange => ({
  status: undefined,
  failure: undefined,
  unavailable: false,
  deprecation: undefined,
  sunset: undefined,
  ...fields,
});

export interface ForwardContext {
  readonly target: Target;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
  readonly ledger: Ledger;
  readonly secrets: readonly string[];
  readonly retry: ForwardRetry;
  readonly availability: Availability;
  readonly version: ApiVersion;
  /** What the request replays, for the ledger. */
  readonly source: string;
  /** The run's stop: no request is sent again after it. */
  readonly signal?: AbortSignal;
}

/** The target's answer, scrubbed, or why there is none. */
export type Forwarded =
  | {
      readonly kind: 'answer';
      readonly status: number;
      readonly headers: Record<string, string | string[]>;
      readonly body: Buffer;
      readonly exchange: Exchange;
    }
  | { readonly kind: 'none'; readonly exchange: Exchange };

const header = (headers: Record<string, string | string[] | undefined>, name: string) => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

/**
 * Sends one request to the target: a create is ledgered before it leaves; a target that is
 * busy (429, 503, honouring `Retry-After` up to a bound) or took no connection is retried, and
 * so is a read that lost its answer; the order a create made is recorded, and every secret is
 * scrubbed from what goes back to Pact. A target that stays unavailable is reported as such,
 * never as a broken contract.
 */
export async function forward(
  request: Extract<Filtered, { kind: 'forward' }>,
  context: ForwardContext,
): Promise<Forwarded> {
  const started = performance.now();
  const { ledger, target, retry, availability } = context;
  const key = request.creates
    ? ledger.creating(target, { credential: 'main', version: context.version, source: context.source })
    : undefined;
  let processedMaybe = false;
  const exchange = (fields: Partial<Exchange> & Pick<Exchange, 'attempts'>) =>
    exchangeOf({
      version: context.version,
      method: request.method,
      path: request.path,
      ms: Math.round(performance.now() - started),
      credentials: request.credentials,
      ...fields,
    });
  const giveUp = (attempts: number, why: string): Forwarded => {
    availability.gaveUp();
    if (key) {
      if (processedMaybe) ledger.unresolved(key, why);
      else ledger.close(key, 'not-created', why);
    }
    return {
      kind: 'none',
      exchange: exchange({ attempts, failure: `target unavailable: ${why}`, unavailable: true }),
    };
  };

  /** Waits before the next attempt; false when the run stopped meanwhile. */
  const pause = (ms: number) => sleep(ms, true, { signal: context.signal }).catch(() => false);
  const stopped = (attempts: number): Forwarded => {
    if (key) {
      if (processedMaybe) ledger.unresolved(key, 'the run was interrupted');
      else ledger.close(key, 'not-created', 'the run was interrupted');
    }
    return {
      kind: 'none',
      exchange: exchange({ attempts, failure: 'not sent again: the run was interrupted' }),
    };
  };

  for (let attempt = 1; ; attempt++) {
    if (availability.down) return giveUp(attempt - 1, 'it stopped answering earlier in the run');
    const left = attempt <= retry.attempts;
    const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
    let response: Dispatcher.ResponseData;
    let body: Buffer;
    try {
      response = await context.dispatcher.request({
        origin: new URL(target.baseUrl).origin,
        path: request.path,
        method: request.method as Dispatcher.HttpMethod,
        headers: request.headers,
        body: request.body,
        headersTimeout: context.timeoutMs,
        bodyTimeout: context.timeoutMs,
      });
      try {
        body = Buffer.from(await response.body.arrayBuffer());
      } catch (error) {
        throw new IncompleteBodyError(error);
      }
    } catch (error) {
      const unsent = notConnected(error) && !isIncompleteBodyError(error);
      processedMaybe ||= !unsent;
      const why = redact(
        isIncompleteBodyError(error) ? describeIncompleteBody(error.cause) : describeTransportFailure(error),
        context.secrets,
      );
      // A lost answer may mean the request was processed: only a read is sent again then.
      if (left && (unsent || request.method === 'GET')) {
        if (!(await pause(backoff))) return stopped(attempt);
        continue;
      }
      return giveUp(attempt, why);
    }
    const status = response.statusCode;
    if (status === 429 || status === 503) {
      const asked = parseRetryAfter(response.headers['retry-after']);
      const delay = asked === undefined ? backoff : asked * 1000;
      if (left && delay <= retry.maxDelayMs) {
        if (!(await pause(delay))) return stopped(attempt);
        continue;
      }
      return giveUp(
        attempt,
        `it answered ${status} ${attempt} times${asked === undefined ? '' : ` (Retry-After ${asked} s)`}`,
      );
    }
    availability.answered();
    if (key) settleCreate(ledger, key, status, body);
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined || HOP_BY_HOP.has(name)) continue;
      headers[name] = Array.isArray(value)
        ? value.map((entry) => redact(entry, context.secrets))
        : redact(value, context.secrets);
    }
    const scrubbed = redactBuffer(body, context.secrets);
    return {
      kind: 'answer',
      status,
      headers: { ...headers, 'content-length': String(scrubbed.length) },
      body: scrubbed,
      exchange: exchange({
        attempts: attempt,
        status,
        deprecation: header(response.headers, 'deprecation'),
        sunset: header(response.headers, 'sunset'),
      }),
    };
  }
}

/** What a create's answer says about the order: its uuid, or that none was made. */
function settleCreate(ledger: Ledger, key: string, status: number, body: Buffer): void {
  if (status < 200 || status > 299) {
    ledger.close(key, 'not-created', `status ${status}`);
    return;
  }
  const created = orderCreatedSchema.safeParse(parseBody(body));
  if (created.success) ledger.created(key, created.data.uuid);
  else ledger.unresolved(key, `answer ${status} without a uuid`);
}
