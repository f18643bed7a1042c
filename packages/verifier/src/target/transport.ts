import type { RetryEvent, RetryObserver, RetryPolicy } from '@print-contracts/client';

/** Retries of a request that got no answer, or a 503 without `Retry-After`, unless `--retries` says otherwise. */
export const DEFAULT_RETRIES = 4;

/** What every request of a run is sent with: the client's retry policy, and who hears of each retry. */
export interface Transport {
  readonly retry: RetryPolicy;
  readonly onRetry?: RetryObserver;
}

/**
 * The run's one retry policy, for probe, arrange, replay, settle and cleanup alike. Throttling is
 * waited out for as long as an order may take to be created (`--creation-timeout`), the run's
 * one bound on waiting; a call about an order gives that order's ledger deadline instead.
 */
export function runRetryPolicy(options: { retries: number; creationTimeoutMs: number }): RetryPolicy {
  return {
    retries: options.retries,
    baseDelayMs: 500,
    maxDelayMs: 30_000,
    statuses: [429, 503],
    budgetMs: options.creationTimeoutMs,
  };
}

/** What the run met of throttling and retries: reported, never a verdict. */
export interface RetrySummary {
  /** 429 answers waited out. */
  readonly answers429: number;
  /** 503 answers retried (with or without `Retry-After`). */
  readonly answers503: number;
  /** Retries after no answer at all. */
  readonly unanswered: number;
  /** The waits between attempts, added up over every request (they may overlap). */
  readonly waitedMs: number;
}

/** Counts the retries of every request of a run, from the client's and the replay proxy's observer. */
export class RetryTally {
  #answers429 = 0;
  #answers503 = 0;
  #unanswered = 0;
  #waitedMs = 0;

  readonly observe: RetryObserver = (event: RetryEvent) => {
    if (event.status === 429) this.#answers429++;
    else if (event.status === 503) this.#answers503++;
    else if (event.status === undefined) this.#unanswered++;
    this.#waitedMs += event.delayMs;
  };

  summary(): RetrySummary {
    return {
      answers429: this.#answers429,
      answers503: this.#answers503,
      unanswered: this.#unanswered,
      waitedMs: this.#waitedMs,
    };
  }
}
