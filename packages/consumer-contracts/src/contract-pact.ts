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
import { MATCH_BOOKKEEPING_TIMEOUT_MS, matchBooked } from './match-booked.js';
import { type ClientSetup, requestHeaders } from './request-headers.js';
import { API_BASE_PATH } from './request-paths.js';

/** pact-js does not export its V4 builder types; these are the same types, by derivation. */
type V4UnconfiguredInteraction = ReturnType<PactV4['addInteraction']>;
type V4MockServer = V3MockServer;

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
   * It hands back only once the mock server has booked the match: pact-js reads the verdict
   * right away, and pact-core 19 books it after answering.
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
