import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How requests are retried. A 429, a 503 or a connection that was never made proves nothing was
 * processed, so it is retried for any method; any other failure only for a read. Throttling (a
 * 429, or a 503 with `Retry-After`) is waited out for as long as the time budget lasts; the
 * other failures at most `retries` times.
 */
export interface RetryPolicy {
  /** Retries of failures other than throttling, after the first attempt; 0 turns retrying off altogether. */
  retries: number;
  /** First backoff; doubled each retry, with jitter. */
  baseDelayMs: number;
  /** No backoff of the client's own is longer (a `Retry-After` is taken as it is, within the budget). */
  maxDelayMs: number;
  /** Statuses a read is retried on, besides 429 and 503 (which every request is). */
  statuses: readonly number[];
  /** How long one call may spend waiting between attempts, unless the call gives a `deadline`. */
  budgetMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 2,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  statuses: [429, 503],
  budgetMs: 60_000,
};

/** Answers that prove the server processed nothing: retried for any method. A 500 or 502 proves nothing. */
export const UNPROCESSED_STATUSES: readonly number[] = [429, 503];

/**
 * What a gateway in front of the vendor answers when the vendor did not (502 Bad Gateway, 504
 * Gateway Timeout): no answer of the vendor's, like a connection lost. A read is retried; a write
 * may have been done all the same.
 */
export const GATEWAY_STATUSES: readonly number[] = [502, 504];

/** An answer that is none of the vendor's: busy (429, 503, nothing done), or a gateway's for it. */
export const withoutVendorAnswer = (status: number): boolean =>
  UNPROCESSED_STATUSES.includes(status) || GATEWAY_STATUSES.includes(status);

/**
 * Seconds from a `Retry-After` header: delta-seconds or an HTTP date. A date is the server's
 * clock, so it is measured against the answer's own `Date` header (`date`) when that is a valid
 * HTTP date, else against `now`: a vendor whose clock runs ahead of this machine's asking for a
 * retry 2 s later is asked again 2 s later, not when this machine's clock reaches the date.
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
  date?: string | string[],
): number | undefined {
  const raw = first(value);
  if (!raw) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const at = httpDate(raw);
  if (at === undefined) return undefined;
  const answeredAt = httpDate(first(date) ?? '') ?? now;
  return Math.max(0, Math.ceil((at - answeredAt) / 1000));
}

const first = (value: string | string[] | undefined): string | undefined =>
  (Array.isArray(value) ? value[0] : value)?.trim();

/** Epoch milliseconds of an HTTP date; only one (it starts with the day's name): Date.parse also reads "-5" or "1.5". */
function httpDate(raw: string): number | undefined {
  const at = /^[A-Za-z]{3}/.test(raw) ? Date.parse(raw) : Number.NaN;
  return Number.isNaN(at) ? undefined : at;
}

/**
 * Milliseconds before retry number `attempt` (1-based): the `Retry-After`, else the policy's
 * backoff. A `Retry-After` of 0 (or a date already past) asks for no wait, so the backoff applies:
 * a vendor answering every request 429 that way is not asked again a thousand times a second.
 */
export function retryDelay(policy: RetryPolicy, attempt: number, retryAfterSeconds?: number): number {
  if (retryAfterSeconds) return retryAfterSeconds * 1000;
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
  const jitter = 0.5 + Math.random() / 2;
  return Math.min(policy.maxDelayMs, Math.round(exponential * jitter));
}

/** What one attempt came to, as the retry rule reads it. */
export type AttemptResult<T> =
  | {
      readonly answered: true;
      readonly status: number;
      readonly retryAfterSeconds: number | undefined;
      readonly value: T;
    }
  | {
      readonly answered: false;
      /** No connection was made: nothing was sent. */
      readonly unsent: boolean;
      /** Trying again cannot help (an untrusted certificate, an abort). */
      readonly hopeless?: boolean;
      readonly error: unknown;
    };

/** One retry about to be waited for: what the observer of a client or of the replay proxy sees. */
export interface RetryEvent {
  readonly method: string;
  readonly path: string;
  /** The attempt that failed, 1-based. */
  readonly attempt: number;
  /** Its answer's status; undefined when no answer came. */
  readonly status: number | undefined;
  /** A 429, or a 503 with `Retry-After`: the target asked to be left alone for a while. */
  readonly throttled: boolean;
  readonly delayMs: number;
}

export type RetryObserver = (event: RetryEvent) => void;

export interface RetryRun {
  readonly method: string;
  readonly path: string;
  readonly policy: RetryPolicy;
  /** Epoch milliseconds no wait may reach past; default `budgetMs` from the first attempt. */
  readonly deadline?: number;
  /** Ends a wait between attempts; no attempt is made after it. */
  readonly signal?: AbortSignal;
  readonly onRetry?: RetryObserver;
}

/** The last attempt, how many were made, and whether the caller's signal ended a wait. */
export interface Retried<T> {
  readonly last: AttemptResult<T>;
  readonly attempts: number;
  readonly aborted: boolean;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Sends by `attempt` until an answer needs no retry, the policy's count of non-throttling
 * failures is spent, or the deadline is reached (a `Retry-After` past it ends the call at once).
 * The one retry loop of the kit: the client and the verifier's replay proxy both send through it.
 */
export async function withRetries<T>(
  attempt: (number: number) => Promise<AttemptResult<T>>,
  run: RetryRun,
): Promise<Retried<T>> {
  const { policy, signal } = run;
  const deadline = run.deadline ?? Date.now() + policy.budgetMs;
  let failures = 0;
  let final = false;
  for (let number = 1; ; number++) {
    const last = await attempt(number);
    const wait = signal?.aborted ? undefined : nextWait(policy, run.method, last, number, failures);
    if (wait === undefined || policy.retries === 0 || final)
      return { last, attempts: number, aborted: false };
    const left = deadline - Date.now();
    let { delayMs } = wait;
    if (delayMs > left) {
      // The budget is used whole: a backoff of the kit's own that would pass the deadline ends
      // at it, for one last attempt. A `Retry-After` past it is the server's word: no sooner.
      if (wait.asked || left <= 0) return { last, attempts: number, aborted: false };
      delayMs = left;
      final = true;
    }
    if (!wait.throttled) failures++;
    run.onRetry?.({
      method: run.method,
      path: run.path,
      attempt: number,
      status: last.answered ? last.status : undefined,
      throttled: wait.throttled,
      delayMs,
    });
    const resumed = await sleep(delayMs, true, { signal }).catch(() => false);
    if (!resumed) return { last, attempts: number, aborted: true };
  }
}

/** The wait before another attempt, or undefined when this result is final. */
function nextWait(
  policy: RetryPolicy,
  method: string,
  result: AttemptResult<unknown>,
  attempt: number,
  failures: number,
): { delayMs: number; throttled: boolean; asked: boolean } | undefined {
  const read = READS.has(method.toUpperCase());
  if (result.answered) {
    const { status, retryAfterSeconds } = result;
    if (status >= 200 && status < 400) return undefined;
    const throttled = status === 429 || (status === 503 && retryAfterSeconds !== undefined);
    const worth = UNPROCESSED_STATUSES.includes(status) || (read && policy.statuses.includes(status));
    if (!worth || (!throttled && failures >= policy.retries)) return undefined;
    const delayMs = retryDelay(policy, attempt, retryAfterSeconds);
    return { delayMs, throttled, asked: Boolean(retryAfterSeconds) };
  }
  if (result.hopeless || !(result.unsent || read) || failures >= policy.retries) return undefined;
  return { delayMs: retryDelay(policy, attempt), throttled: false, asked: false };
}
