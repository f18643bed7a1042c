import { decodeContent, describeTransportFailure, readBody } from '@print-contracts/client/kit';
import type { Dispatcher } from 'undici';
import { BrokerError } from '../errors/index.js';
import type { BrokerAuth, BrokerConnection } from '../options/verify-options.js';

/**
 * One JSON request to the Pact Broker (HAL), plain HTTP: no Pact CLI. Errors are
 * `BrokerError`s naming the URL and the status; the credentials never appear in them.
 */
export async function brokerJson(
  dispatcher: Dispatcher,
  broker: BrokerConnection,
  url: string,
  options: { method?: 'GET' | 'POST'; body?: unknown; timeoutMs: number },
): Promise<unknown> {
  const target = new URL(url);
  const authorization = authorizationHeader(broker.auth);
  let status: number;
  let text: string;
  try {
    const response = await dispatcher.request({
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: options.method ?? 'GET',
      headers: {
        accept: 'application/hal+json, application/json',
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(authorization ? { authorization } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
    status = response.statusCode;
    const raw = await readBody(response.body, options.timeoutMs);
    text = (decodeContent(raw, response.headers['content-encoding']) ?? raw).toString('utf8');
  } catch (error) {
    throw new BrokerError(
      `cannot reach the Pact Broker at ${target.origin}: ${describeTransportFailure(error).replace('the target', 'it')}`,
    );
  }
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
