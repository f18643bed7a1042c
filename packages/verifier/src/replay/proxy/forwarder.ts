import {
  type ApiVersion,
  orderCreatedSchema,
  UNPROCESSED_STATUSES,
  withoutVendorAnswer,
} from '@print-contracts/client';
import { isRedirect, redact, redactBuffer, redactValue } from '@print-contracts/client/kit';
import type { Dispatcher } from 'undici';
import type { Ledger } from '../../ledger/ledger.js';
import type { Target } from '../../target/target.js';
import { type Lost, madeNothing, sendWithRetries, type Transport } from '../../target/transport.js';
import { type Filtered, HOP_BY_HOP, parseBody } from './request-filter.js';

/** After this many requests given up in a row, the target counts as down: no more waiting. */
const DOWN_AFTER = 3;

/**
 * Whether the target still answers, shared by every request of a run: requests given up in a row.
 * One counts only when no answer of the target came while it waited: a target that answers other
 * requests meanwhile holds some (each of them unavailable on its own), and is not down.
 */
export class Availability {
  givenUp = 0;
  /** `performance.now()` when the target last answered. */
  answeredAt = Number.NEGATIVE_INFINITY;
}

/** One request the proxy forwarded (or refused), as the report and the version findings read it. */
export interface Exchange {
  readonly version: ApiVersion;
  readonly method: string;
  /** Path on the target, below its origin. */
  readonly path: string;
  readonly status?: number;
  readonly ms: number;
  readonly attempts: number;
  /** `real`: it carried a real credential set; `refused`: none or a wrong one, on purpose. */
  readonly credentials: 'real' | 'refused';
  /** Why no answer of the target reached Pact: a safety refusal, or the target unavailable. */
  readonly failure?: string;
  /** The target stayed unavailable (429, 503, a gateway's 502 or 504, or no answer) after the retries. */
  readonly unavailable: boolean;
  /** The answer's `Deprecation` (RFC 9745) and `Sunset` (RFC 8594) headers. */
  readonly deprecation?: string;
  readonly sunset?: string;
  /** A redirect's `Location`, kept from Pact, which would follow it past the proxy. */
  readonly redirect?: string;
  /** The verifier itself failed on the request (`failure` says how): nothing of the target's is judged. */
  readonly broke?: boolean;
}

/** `retry` and `onRetry`: the run's policy, sent through the client's own retry loop. */
export interface ForwardContext extends Transport {
  readonly target: Target;
  readonly dispatcher: Dispatcher;
  readonly timeoutMs: number;
  readonly ledger: Ledger;
  readonly secrets: readonly string[];
  readonly availability: Availability;
  readonly version: ApiVersion;
  /** What the request replays, for the ledger. */
  readonly source: string;
  /** The run's stop: no request is sent again after it. */
  readonly signal?: AbortSignal;
}

type ForwardRequest = Extract<Filtered, { kind: 'forward' }>;

/** The target's answer, scrubbed, or none; the exchange either way. */
export interface Forwarded {
  readonly exchange: Exchange;
  readonly answer?: { status: number; headers: Record<string, string | string[]>; body: Buffer };
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(', ') : value);

/**
 * Sends one request, a create ledgered first, through the client's retry loop: a busy target or
 * one that took no connection is retried, and so is a read that lost its answer. Every secret is
 * scrubbed from the answer.
 */
export async function forward(request: ForwardRequest, context: ForwardContext): Promise<Forwarded> {
  const started = performance.now();
  const { ledger, availability, secrets, version, source } = context;
  const key = request.creates
    ? ledger.creating(context.target, { credential: 'main', version, source })
    : undefined;
  const exchange = (attempts: number, fields: Partial<Exchange> = {}): Exchange => ({
    version,
    method: request.method,
    path: request.path,
    ms: Math.round(performance.now() - started),
    attempts,
    credentials: request.credentials,
    unavailable: false,
    ...fields,
  });
  /** No answer reaches Pact; a create the target may have processed stays open in the ledger. */
  const noAnswer = (
    attempts: number,
    why: string,
    processedMaybe: boolean,
    interrupted = false,
  ): Forwarded => {
    if (!interrupted && availability.answeredAt < started) availability.givenUp++;
    if (key && processedMaybe) ledger.record('unresolved', key, { reason: why });
    else if (key) ledger.record('closed', key, { outcome: 'not-created', note: why });
    const failure = interrupted ? `not sent again: ${why}` : `target unavailable: ${why}`;
    return { exchange: exchange(attempts, { failure, unavailable: !interrupted }) };
  };
  const down = 'it stopped answering earlier in the run';
  if (availability.givenUp >= DOWN_AFTER) return noAnswer(0, down, false);

  const { origin } = new URL(context.target.baseUrl);
  const { last, attempts, aborted } = await sendWithRetries(
    context.dispatcher,
    { origin, ...request, method: request.method as Dispatcher.HttpMethod },
    context,
    {
      timeoutMs: context.timeoutMs,
      signal: context.signal,
      // Another request found the target down while this one waited: no more waiting.
      givenUp: () => (availability.givenUp >= DOWN_AFTER ? down : undefined),
    },
  );
  if (aborted) return noAnswer(attempts, 'the run was interrupted', false, true);
  if (!last.answered) {
    return noAnswer(attempts, redact((last.error as Lost).failure, secrets), !last.unsent);
  }
  const sent = last.value;
  const { statusCode: status, headers } = sent.response;
  // Busy, or a gateway answered for it: no answer of the vendor's reaches Pact. Only a 429 or a
  // 503 proves the vendor did nothing; a create a gateway answered may have been made.
  if (withoutVendorAnswer(status)) {
    const asked = last.retryAfterSeconds;
    const times = attempts === 1 ? '' : ` ${attempts} times`;
    const why = `it answered ${status}${times}${asked === undefined ? '' : ` (Retry-After ${asked} s)`}`;
    return noAnswer(attempts, why, !UNPROCESSED_STATUSES.includes(status));
  }
  availability.givenUp = 0;
  availability.answeredAt = performance.now();
  if (key) {
    const created =
      status >= 200 && status <= 299 ? orderCreatedSchema.safeParse(parseBody(sent.body)) : undefined;
    // A refusal made nothing (a 307 or 308 neither); a server error or another redirect proves nothing.
    if (!created && !madeNothing(status)) ledger.record('unresolved', key, { reason: `answer ${status}` });
    else if (!created) ledger.record('closed', key, { outcome: 'not-created', note: `status ${status}` });
    else if (created.success) ledger.answered(key, created.data.uuid);
    else ledger.record('unresolved', key, { reason: `answer ${status} without a uuid` });
  }
  const body = redactBuffer(sent.body, secrets);
  // Pact's verifier follows a redirect itself, past the proxy, its ledger and its safety, where
  // the kit's client follows none: Pact gets the redirect without where it points
  // (no option turns following off: pact-foundation/pact-net#441).
  const redirect = isRedirect(status) ? header(headers.location) : undefined;
  // Names come lower-cased: one that holds a secret in any case is dropped (no header name holds `[REDACTED]`).
  const lowered = secrets.map((secret) => secret.toLowerCase());
  // A body decoded by the transport goes on without the coding it no longer has.
  const kept = Object.entries(headers).filter(
    ([name, value]) =>
      value !== undefined &&
      !HOP_BY_HOP.has(name) &&
      (sent.encoded || name !== 'content-encoding') &&
      !(redirect !== undefined && name === 'location') &&
      redact(name, lowered) === name,
  );
  const scrubbed = Object.fromEntries(kept.map(([name, value]) => [name, redactValue(value, secrets)]));
  const { deprecation, sunset } = headers;
  return {
    answer: { status, headers: { ...scrubbed, 'content-length': String(body.length) }, body },
    exchange: exchange(attempts, {
      status,
      deprecation: header(deprecation),
      sunset: header(sunset),
      ...(redirect === undefined ? {} : { redirect: redact(redirect, secrets) }),
    }),
  };
}
