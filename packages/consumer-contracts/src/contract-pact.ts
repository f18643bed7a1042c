import { setTimeout as sleep } from 'node:timers/promises';
import { PactV4, SpecificationVersion, type V3MockServer } from '@pact-foundation/pact';
import {
  type ApiVersion,
  CONSUMER_NAME,
  OrdersClient,
  PLACEHOLDER_CREDENTIALS,
  providerName,
  WRONG_SECRET,
} from '@print-contracts/client';
import { startCredentialStrippingProxy } from './credential-stripping-proxy.js';
import { PactInternalsError } from './errors/pact-internals-error.js';
import { type ClientSetup, requestHeaders } from './request-headers.js';
import { API_BASE_PATH } from './request-paths.js';

/** How long to wait, by default, for the mock server to book a request the client already got an answer to. */
const MATCH_BOOKKEEPING_TIMEOUT_MS = 2_000;
const MATCH_BOOKKEEPING_POLL_MS = 2;

/** pact-js does not export its V4 builder types; these are the same types, by derivation. */
type V4UnconfiguredInteraction = ReturnType<PactV4['addInteraction']>;
type V4MockServer = V3MockServer;

/** The part of pact-core's consumer pact that says whether a mock server saw what it expected. */
interface MockServerBookkeeping {
  mockServerMatchedSuccessfully(port: number): boolean;
}

/**
 * The pact between the client and one API version, written into `dir`. Each interaction runs
 * on its own mock server (pact-js starts one per `executeTest`), with a fresh client built
 * on it by `withClient`.
 */
export class ContractPact<V extends ApiVersion> {
  readonly version: V;
  readonly #pact: PactV4;
  readonly #bookkeepingTimeoutMs: number;

  /**
   * `dir`: where the pact file goes. `bookkeepingTimeoutMs`: how long a served request may
   * take to be booked before the interaction counts as not received (default 2 s).
   */
  constructor(version: V, options: { dir: string; bookkeepingTimeoutMs?: number }) {
    this.version = version;
    this.#bookkeepingTimeoutMs = options.bookkeepingTimeoutMs ?? MATCH_BOOKKEEPING_TIMEOUT_MS;
    this.#pact = new PactV4({
      consumer: CONSUMER_NAME,
      provider: providerName(version),
      dir: options.dir,
      spec: SpecificationVersion.SPECIFICATION_VERSION_V4,
      logLevel: 'error',
    });
  }

  /** Starts one interaction. */
  addInteraction(): V4UnconfiguredInteraction {
    return this.#pact.addInteraction();
  }

  /** The request headers the client sends with `setup`, as the pact expects them. */
  requestHeaders(setup: ClientSetup = {}) {
    return requestHeaders(this.version, setup);
  }

  /**
   * The test function for `executeTest`: builds the real client on the mock server with the
   * placeholder credentials (or as `setup` says), runs `exercise`, and closes the client.
   *
   * Before handing back, it waits until the mock server has booked the match. Pact's mock
   * server records a match on a queue after answering, so under load pact-js can ask too
   * early and report "request was expected but not received" for a request that was served
   * (pact-foundation/pact-core-mock-server#13). The wait ends as soon as the match is booked,
   * and a request that truly did not match still fails, only after the timeout.
   */
  withClient<T>(
    exercise: (client: OrdersClient<V>) => Promise<T>,
    setup: ClientSetup = {},
  ): (server: V4MockServer) => Promise<T> {
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
        await this.#matchBooked(server.port);
        return result;
      } finally {
        await client.close();
        await proxy?.close();
      }
    };
  }

  async #matchBooked(port: number): Promise<void> {
    const bookkeeping = this.#bookkeeping();
    const deadline = Date.now() + this.#bookkeepingTimeoutMs;
    while (!bookkeeping.mockServerMatchedSuccessfully(port) && Date.now() < deadline) {
      await sleep(MATCH_BOOKKEEPING_POLL_MS);
    }
  }

  /** pact-js keeps pact-core's handle in a private field; reading it is the only way to ask early. */
  #bookkeeping(): MockServerBookkeeping {
    const core = (this.#pact as unknown as { pact?: Partial<MockServerBookkeeping> }).pact;
    if (typeof core?.mockServerMatchedSuccessfully !== 'function') {
      throw new PactInternalsError(
        'pact-js no longer exposes mockServerMatchedSuccessfully on PactV4; revisit ContractPact#matchBooked',
      );
    }
    return core as MockServerBookkeeping;
  }
}
