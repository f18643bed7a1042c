import type { Dispatcher } from 'undici';
import { BrokerError } from '../errors/index.js';
import type { BrokerAuth, BrokerConnection } from '../options/verify-options.js';
import { type Lost, sendWithRetries, type Transport } from '../target/transport.js';

/**
 * One JSON request to the Pact Broker (HAL), plain HTTP: no Pact CLI. It goes through the run's one
 * transport, so a throttling broker (PactFlow answers 429) is waited out like the target. Errors are
 * `BrokerError`s naming the URL and the status; the credentials never appear in them.
 */
export async function brokerJson(
  dispatcher: Dispatcher,
  broker: BrokerConnection,
  url: string,
  options: {
    method?: 'GET' | 'POST';
    body?: unknown;
    timeoutMs: number;
    transport: Transport;
    signal?: AbortSignal;
  },
): Promise<unknown> {
  const target = new URL(url);
  const home = new URL(broker.url).origin;
  // The broker's credentials go to its own origin only, wherever its links point.
  if (target.origin !== home) {
    throw new BrokerError(
      `the Pact Broker at ${home} links to ${target.origin}; the verifier sends the broker's credentials to ${home} only: set the broker's public base URL to match it`,
    );
  }
  const authorization = authorizationHeader(broker.auth);
  const request = {
    origin: target.origin,
    path: `${target.pathname}${target.search}`,
    method: options.method ?? 'GET',
    headers: {
      accept: 'application/hal+json, application/json',
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(authorization ? { authorization } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  };
  const { timeoutMs, signal } = options;
  const { last, aborted } = await sendWithRetries(dispatcher, request, options.transport, {
    timeoutMs,
    ...(signal ? { signal } : {}),
  });
  if (aborted || signal?.aborted)
    throw new BrokerError('stopped while the Pact Broker was asked for the pacts');
  if (!last.answered) {
    const { failure } = last.error as Lost;
    throw new BrokerError(
      `cannot reach the Pact Broker at ${target.origin}: ${failure.replace('the target', 'it')}`,
    );
  }
  const { status } = last;
  const text = last.value.body.toString('utf8');
  if (status === 401 || status === 403) {
    throw new BrokerError(
      `the Pact Broker refused the credentials (status ${status}); check PACT_BROKER_TOKEN or PACT_BROKER_USERNAME/PASSWORD`,
    );
  }
  if (status < 200 || status > 299) {
    throw new BrokerError(
      `the Pact Broker answered ${status} to ${options.method ?? 'GET'} ${target.pathname}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BrokerError(`the Pact Broker answered ${target.pathname} with something that is not JSON`);
  }
}

/** The `authorization` header for `auth`, if it holds any credential. */
function authorizationHeader({ token, username, password }: BrokerAuth): string | undefined {
  if (token) return `Bearer ${token}`;
  return username ? `Basic ${Buffer.from(`${username}:${password ?? ''}`).toString('base64')}` : undefined;
}
