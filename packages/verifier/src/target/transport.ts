import {
  GATEWAY_STATUSES,
  parseRetryAfter,
  type RetryObserver,
  type RetryPolicy,
  UNPROCESSED_STATUSES,
  withRetries,
} from '@print-contracts/client';
import {
  decodeContent,
  describeIncompleteBody,
  describeTransportFailure,
  hopeless,
  notConnected,
  readBody,
} from '@print-contracts/client/kit';
import type { Dispatcher } from 'undici';

/**
 * Whether an answer to a create shows that no order was made: a refusal (4xx), or a 307 or 308,
 * which ask for the very request to be sent elsewhere. A 301, 302 or 303 may answer a create that
 * was done (post/redirect/get), and a 5xx proves nothing either: the order may exist, and the
 * run's reference finds it.
 */
export const madeNothing = (status: number): boolean =>
  (status >= 400 && status < 500) || status === 307 || status === 308;

/** The longest backoff of the run's own; a longer wait is one the target asked for. */
const LONGEST_BACKOFF_MS = 5_000;

/** What every request of a run is sent with: the client's retry policy, and who hears of each retry. */
export interface Transport {
  readonly retry: RetryPolicy;
  readonly onRetry?: RetryObserver;
}

/**
 * The run's one retry policy, for probe, arrange, replay, settle and cleanup alike. Throttling is
 * waited out for as long as an order may take to be created (`--creation-timeout`), the run's
 * one bound on waiting; a call about an order gives that order's ledger deadline instead. Its
 * backoff stops growing at 5 s: a vendor throttling one request in three without a
 * `Retry-After` is asked again every few seconds until the bound, not twice in it (the mutation
 * harness saw a 30 s cap give up on an arranging read after five 429s, 2 s before its bound).
 * A read a gateway answered for the vendor is retried as one that lost its answer.
 */
export function runRetryPolicy(options: { retries: number; creationTimeoutMs: number }): RetryPolicy {
  return {
    retries: options.retries,
    baseDelayMs: 500,
    maxDelayMs: LONGEST_BACKOFF_MS,
    statuses: [...UNPROCESSED_STATUSES, ...GATEWAY_STATUSES],
    budgetMs: options.creationTimeoutMs,
  };
}

/** A complete answer of the target. */
export interface Answer {
  readonly response: Dispatcher.ResponseData;
  /** Without its content codings; as it came when one of them would not decode (`encoded`). */
  readonly body: Buffer;
  readonly encoded: boolean;
}

/** Why no complete answer came: the `error` of a failed attempt (its `unsent` and `hopeless` say whether it may be sent again). */
export interface Lost {
  readonly failure: string;
  readonly cause?: unknown;
}

/**
 * One request straight on the dispatcher (the preflight, the replay proxy), through the client's
 * retry loop: the last attempt's complete answer, or why none came. `givenUp`, asked before each
 * retry, ends the waiting with its reason. The request's own `signal` (a read whose answer is no
 * longer wanted) ends it in flight too; `options.signal` only a wait between attempts.
 */
export function sendWithRetries(
  dispatcher: Dispatcher,
  request: Pick<Dispatcher.RequestOptions, 'origin' | 'path' | 'method' | 'headers' | 'body' | 'signal'>,
  transport: Transport,
  options: { timeoutMs: number; signal?: AbortSignal; givenUp?: () => string | undefined },
): ReturnType<typeof withRetries<Answer>> {
  return withRetries<Answer>(
    async (attempt) => {
      const givenUp = attempt > 1 ? options.givenUp?.() : undefined;
      if (givenUp) return { answered: false, unsent: true, hopeless: true, error: { failure: givenUp } };
      let response: Dispatcher.ResponseData;
      try {
        response = await dispatcher.request({
          ...request,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
      } catch (cause) {
        const error = { failure: describeTransportFailure(cause), cause };
        return { answered: false, unsent: notConnected(cause), hopeless: hopeless(cause), error };
      }
      try {
        const raw = await readBody(response.body, options.timeoutMs);
        const decoded = decodeContent(raw, response.headers['content-encoding']);
        const value = { response, body: decoded ?? raw, encoded: decoded === undefined };
        const { headers } = response;
        const retryAfterSeconds = parseRetryAfter(headers['retry-after'], Date.now(), headers.date);
        return { answered: true, status: response.statusCode, retryAfterSeconds, value };
      } catch (cause) {
        return { answered: false, unsent: false, error: { failure: describeIncompleteBody(cause), cause } };
      }
    },
    {
      method: String(request.method),
      path: String(request.path),
      policy: transport.retry,
      signal: options.signal,
      onRetry: transport.onRetry,
    },
  );
}

/** What the run met of throttling and retries: reported, never a verdict. */
export interface RetrySummary {
  /** 429 answers waited out. */
  readonly answers429: number;
  /** 503 answers retried (with or without `Retry-After`). */
  readonly answers503: number;
  /** Retries after no answer of the vendor's: none at all, or a gateway's 502 or 504. */
  readonly unanswered: number;
  /** The waits between attempts, added up over every request (they may overlap). */
  readonly waitedMs: number;
}

/**
 * Counts the retries of every request of a run, from the client's and the replay proxy's
 * observer. A wait the target asked for, longer than any backoff of the run's own, is told to
 * `say` as it starts: a console silent for a minute looks like a run that hangs.
 */
export function retryTally(say?: (line: string) => void): {
  observe: RetryObserver;
  summary: () => RetrySummary;
} {
  const counts = { answers429: 0, answers503: 0, unanswered: 0, waitedMs: 0 };
  const observe: RetryObserver = (event) => {
    if (event.status === 429) counts.answers429++;
    else if (event.status === 503) counts.answers503++;
    else if (event.status === undefined || GATEWAY_STATUSES.includes(event.status)) counts.unanswered++;
    counts.waitedMs += event.delayMs;
    if (say && event.delayMs > LONGEST_BACKOFF_MS) {
      const seconds = Math.ceil(event.delayMs / 1000);
      say(
        `Waiting ${seconds} s, as the target asked (${event.status ?? 'no answer'}), before sending ${event.method} ${event.path} again`,
      );
    }
  };
  return { observe, summary: () => ({ ...counts }) };
}
