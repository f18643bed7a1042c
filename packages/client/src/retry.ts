/** How idempotent requests are retried. Create, update and cancel are never retried. */
export interface RetryPolicy {
  /** Retries after the first attempt; 0 turns retrying off. */
  retries: number;
  /** First backoff; doubled each retry, with jitter. */
  baseDelayMs: number;
  /** No single wait is longer; a `Retry-After` above it ends the retries. */
  maxDelayMs: number;
  /** Statuses worth another attempt. Transport failures always are. */
  statuses: readonly number[];
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  retries: 2,
  baseDelayMs: 100,
  maxDelayMs: 5_000,
  statuses: [429, 503],
};

/** Seconds from a `Retry-After` header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined || raw.trim() === '') return undefined;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  // Only an HTTP date (it starts with the day's name): Date.parse also reads "-5" or "1.5".
  const date = /^[A-Za-z]{3}/.test(raw.trim()) ? Date.parse(raw) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

/**
 * Milliseconds to wait before retry number `attempt` (1-based), or undefined when the
 * server asked for longer than the policy allows.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfterSeconds?: number,
): number | undefined {
  if (retryAfterSeconds !== undefined) {
    const asked = retryAfterSeconds * 1000;
    return asked > policy.maxDelayMs ? undefined : asked;
  }
  const exponential = policy.baseDelayMs * 2 ** (attempt - 1);
  const jitter = 0.5 + Math.random() / 2;
  return Math.min(policy.maxDelayMs, Math.round(exponential * jitter));
}
