import { createServer, request as forward } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  MatchersV3,
  PactV4,
  SpecificationVersion,
  type TemplateHeaders,
  type V3MockServer,
} from '@pact-foundation/pact';
import { type ConsumerPact, makeConsumerPact } from '@pact-foundation/pact-core';
import {
  API_BASE_PATH,
  type ApiVersion,
  DEFAULT_VERSION_HEADER,
  OrdersClient,
  SECRET_HEADER,
  USER_ID_HEADER,
  versionHeaderValue,
} from '@print-contracts/client';
import {
  CONSUMER_NAME,
  PLACEHOLDER_CREDENTIALS,
  providerName,
  WRONG_SECRET,
} from '@print-contracts/client/kit';

/** How the client of one interaction is set up; the pact's request headers follow from it. */
export interface ClientSetup {
  /**
   * `placeholders` (default): the credential set, as placeholders the verifier swaps for real
   * values. `wrong-secret`: the right user id with a secret that is not its own. `none`: no
   * credential headers at all.
   */
  credentials?: 'placeholders' | 'wrong-secret' | 'none';
  /** `false`: the client sends no version header (the vendor then answers as v1). Default true. */
  versionHeader?: boolean;
}

/**
 * The pact between the client and one API version, written into `dir`. Each interaction runs
 * on its own mock server (pact-js starts one per `executeTest`), with a fresh client built
 * on it by `withClient`.
 */
export class ContractPact<V extends ApiVersion> extends PactV4 {
  readonly version: V;
  readonly #bookkeepingTimeoutMs: number;

  /**
   * `dir`: where the pact file goes. `bookkeepingTimeoutMs`: how long a served request may
   * take to be booked before the interaction counts as not received (default 2 s).
   */
  constructor(version: V, options: { dir: string; bookkeepingTimeoutMs?: number }) {
    super({
      consumer: CONSUMER_NAME,
      provider: providerName(version),
      dir: options.dir,
      spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
      logLevel: 'error',
    });
    this.version = version;
    this.#bookkeepingTimeoutMs = options.bookkeepingTimeoutMs ?? 2_000;
  }

  /**
   * The headers the client sends with `setup`, as the pact expects them: the version header
   * pinned exactly, credentials matched by type with placeholder examples (the wrong secret
   * pinned, so the verifier leaves it wrong).
   */
  requestHeaders(setup: ClientSetup = {}): TemplateHeaders {
    const { credentials = 'placeholders', versionHeader = true } = setup;
    const headers: TemplateHeaders = {};
    if (versionHeader) headers[DEFAULT_VERSION_HEADER.name] = versionHeaderValue(this.version);
    if (credentials !== 'none') headers[USER_ID_HEADER] = MatchersV3.like(PLACEHOLDER_CREDENTIALS.userId);
    if (credentials === 'placeholders')
      headers[SECRET_HEADER] = MatchersV3.like(PLACEHOLDER_CREDENTIALS.secret);
    if (credentials === 'wrong-secret') headers[SECRET_HEADER] = WRONG_SECRET;
    return headers;
  }

  /**
   * The test function for `executeTest`: builds the real client on the mock server with the
   * placeholder credentials (or as `setup` says), runs `exercise`, and closes the client.
   * It hands back only once the mock server has booked the match: pact-js reads the verdict
   * right away, and pact-core 19 books it after answering.
   */
  withClient<T>(
    exercise: (client: OrdersClient<V>) => Promise<T>,
    setup: ClientSetup = {},
  ): (server: V3MockServer) => Promise<T> {
    return async (server) => {
      const proxy =
        setup.credentials === 'none' ? await startCredentialStrippingProxy(server.url) : undefined;
      const client = new OrdersClient<V>({
        baseUrl: `${proxy?.url ?? server.url}${API_BASE_PATH}`,
        userId: PLACEHOLDER_CREDENTIALS.userId,
        secret: setup.credentials === 'wrong-secret' ? WRONG_SECRET : PLACEHOLDER_CREDENTIALS.secret,
        apiVersion: this.version,
        ...(setup.versionHeader === false ? { versionHeader: false } : {}),
        retry: { retries: 0 },
      });
      try {
        const result = await exercise(client);
        // Served but booked late under load: pact-foundation/pact-core-mock-server#13 (fixed in pact-core 20.1, Node >= 22).
        await matchBooked(server.port, this.#bookkeepingTimeoutMs);
        return result;
      } finally {
        await client.close();
        await proxy?.close();
      }
    };
  }
}

let core: ConsumerPact | undefined;

/**
 * Resolves once the mock server on `port` has booked every expected request as matched, or
 * after `timeoutMs` (then pact-js reports what is missing). Asks by port through pact-core's
 * public consumer API, which reaches every mock server in the process; with a core that books
 * before answering, the first ask already says yes.
 */
async function matchBooked(port: number, timeoutMs: number): Promise<void> {
  core ??= makeConsumerPact(CONSUMER_NAME, 'mock-server-bookkeeping');
  const deadline = Date.now() + timeoutMs;
  while (!core.mockServerMatchedSuccessfully(port) && Date.now() < deadline) await sleep(2);
}

const CREDENTIAL_HEADERS = new Set([USER_ID_HEADER.toLowerCase(), SECRET_HEADER.toLowerCase()]);

/**
 * A loopback proxy (`url`: `http://127.0.0.1:{port}`) that forwards every request to `target`
 * without its credential headers. The client always sends its credentials (it refuses to start
 * without them), so the "no credentials" interactions let a real request lose them on the way,
 * as a misconfigured gateway would, instead of faking the client.
 */
export async function startCredentialStrippingProxy(target: string) {
  const upstream = new URL(target);
  const server = createServer((incoming, outgoing) => {
    const kept = Object.entries(incoming.headers).filter(([name]) => !CREDENTIAL_HEADERS.has(name));
    const headers = { ...Object.fromEntries(kept), host: upstream.host };
    const { hostname: host, port } = upstream;
    const proxied = forward(
      { host, port, method: incoming.method, path: incoming.url, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    proxied.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(proxied);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
