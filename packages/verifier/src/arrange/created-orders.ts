import { setMaxListeners } from 'node:events';
import {
  type ApiVersion,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  isRequestValidationError,
  isResponseValidationError,
  isTransportError,
  type OrderDetail,
  type OrdersClient,
} from '@print-contracts/client';
import { ArrangeError, isArrangeError } from '../errors/arrange-error.js';
import type { Ledger } from '../ledger/ledger.js';
import type { OrderBodies } from '../options/verify-options.js';
import type { CreatedSpec } from '../plan/fixture-spec.js';
import type { TargetClients } from '../target/clients.js';
import { setControlState } from '../target/control-surface.js';
import type { ArrangedOrder } from './listed-orders.js';
import { orderBody } from './order-bodies.js';

/** What the vendor's docs name as the causes of an order that never gets placed. */
const PLACEMENT_CAUSES =
  'the vendor names an invalid address, an invalid product or an outdated category sku (give a product you order with --order-fixture)';

export interface CreatedOrdersOptions {
  readonly clients: TargetClients;
  readonly ledger: Ledger;
  readonly bodies: OrderBodies;
  readonly pollIntervalMs: number;
  readonly timeoutMs: number;
  /** Aborts the waits (an interrupt); a create already sent still runs to its answer. */
  readonly signal: AbortSignal;
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/**
 * Creates the run's own orders (each ledgered before its request leaves) and waits for their
 * asynchronous creation, each until its ledger deadline. When one order of a body fails
 * creation, the others of that body stop waiting: they will fail too.
 */
export class CreatedOrders {
  readonly #options: CreatedOrdersOptions;
  /** Per body: aborted, with the reason, when one of its orders failed creation. */
  readonly #doomed = new Map<string, AbortController>();

  constructor(options: CreatedOrdersOptions) {
    this.#options = options;
  }

  /** Creates, waits for and finishes one order as `spec` says, and says how. Throws `ArrangeError`. */
  async arrange(version: ApiVersion, spec: CreatedSpec, source: string): Promise<ArrangedOrder> {
    const { clients, ledger, signal } = this.#options;
    // Stopped before this state's turn: nothing is created after the user asked to stop.
    if (signal.aborted) throw new ArrangeError('not-verifiable', 'not arranged: the run was interrupted');
    const client = clients.client(spec.credential, version);
    const controlled =
      spec.after === 'in-production' || spec.after === 'shipped' || spec.after === 'completed';
    if (controlled && !clients.target.controlOrigin) {
      throw new ArrangeError('not-verifiable', 'the target has no control surface');
    }
    const { key, uuid } = await this.#create(client, version, spec, source, controlled);
    if (spec.product === 'unknown') {
      await this.#waitForFailure(client, key, uuid);
      return { id: 0, uuid, how: `created order ${uuid} for a product no vendor sells; its creation failed` };
    }
    let order = await this.#wait(client, key, uuid, `${version}|${spec.product}`);
    let how = `created test order ${order.id}`;
    if (spec.after === 'cancel') {
      await client.cancelOrder(uuid, 'Arranged by the contract verifier', { signal });
      ledger.close(key, 'cancelled');
      order = await client.getOrder(uuid, { signal });
      how += ', then cancelled it';
    } else if (controlled) {
      ledger.controlled(key);
      await setControlState(clients.dispatcher, clients.target.controlOrigin as string, uuid, spec.after, {
        timeoutMs: this.#options.timeoutMs,
        signal,
      });
      order = await client.getOrder(uuid, { signal });
      how += `, put ${spec.after} through the control surface`;
    }
    if (spec.expectStatus && order.status !== spec.expectStatus) {
      throw new ArrangeError(
        'not-verifiable',
        `the arranged order ${order.id} has status "${order.status}", not "${spec.expectStatus}"`,
      );
    }
    return { id: order.id, uuid: order.uuid ?? uuid, how };
  }

  async #create(
    client: OrdersClient<ApiVersion>,
    version: ApiVersion,
    spec: CreatedSpec,
    source: string,
    controlled: boolean,
  ): Promise<{ key: string; uuid: string }> {
    const { clients, ledger, bodies } = this.#options;
    const { target } = clients;
    const key = ledger.creating(
      target,
      { credential: spec.credential, version, source },
      controlled ? target.controlOrigin : undefined,
    );
    try {
      // Never aborted: a create the target may already have accepted must bring back its uuid.
      const { uuid } = await client.send(
        'createOrder',
        { body: orderBody(bodies, version, ledger.reference, spec.product) },
        { retryUnprocessed: true },
      );
      ledger.created(key, uuid);
      return { key, uuid };
    } catch (error) {
      throw this.#createFailed(key, error);
    }
  }

  #createFailed(key: string, error: unknown): ArrangeError {
    const { ledger } = this.#options;
    if (isHttpError(error)) {
      ledger.close(key, 'not-created', `status ${error.status}`);
      const unavailable = error.status === 429 || error.status === 503;
      return new ArrangeError(
        unavailable ? 'target-unavailable' : 'not-verifiable',
        `the target refused to create the order (${error.message})${unavailable ? '' : `; ${PLACEMENT_CAUSES}`}`,
      );
    }
    if (isRequestValidationError(error)) {
      ledger.close(key, 'not-created', 'refused by the client before sending');
      return new ArrangeError('not-verifiable', `the order body is not valid: ${error.message}`);
    }
    const message = error instanceof Error ? error.message : String(error);
    if (isTransportError(error) && error.failure === 'refused') {
      ledger.close(key, 'not-created', 'the connection was refused');
    } else {
      ledger.unresolved(key, message);
    }
    return new ArrangeError('target-unavailable', `creating the order got no answer: ${message}`, {
      cause: error,
    });
  }

  /** Waits for `uuid` to become readable, until its ledger deadline or its body's doom. */
  async #wait(
    client: OrdersClient<ApiVersion>,
    key: string,
    uuid: string,
    body: string,
  ): Promise<OrderDetail> {
    const { ledger } = this.#options;
    let doomed = this.#doomed.get(body);
    if (!doomed) {
      doomed = new AbortController();
      setMaxListeners(0, doomed.signal); // every order of the body listens
      this.#doomed.set(body, doomed);
    }
    const options = this.#waitOptions(key);
    try {
      // The wait stops as soon as an order of the same body failed: this one will fail too.
      const order = await client.waitForOrder(uuid, {
        ...options,
        signal: AbortSignal.any([options.signal, doomed.signal]),
      });
      ledger.read(key, order.id);
      return order;
    } catch (error) {
      if (doomed.signal.aborted && !options.signal.aborted) {
        throw new ArrangeError('not-verifiable', `another order of the same body: ${doomed.signal.reason}`);
      }
      if (isOrderCreationFailedError(error)) {
        ledger.close(key, 'creation-failed', error.vendorMessage);
        const reason = `order ${uuid} failed creation ("${error.vendorMessage}"); ${PLACEMENT_CAUSES}`;
        doomed.abort(reason);
        throw new ArrangeError('not-verifiable', reason);
      }
      if (isOrderWaitTimeoutError(error)) {
        // Left open in the ledger: teardown and --cleanup wait no longer than its deadline.
        throw new ArrangeError(
          'not-verifiable',
          `order ${uuid} was not readable after ${seconds(error.waitedMs)} (the bound, --creation-timeout); ` +
            `an order still missing after 10 minutes cannot be placed: ${PLACEMENT_CAUSES}; a sample-data credential set may never make its orders readable`,
        );
      }
      throw unavailable(error);
    }
  }

  /** The "creation failed" state: the order must fail, and say so, within its deadline. */
  async #waitForFailure(client: OrdersClient<ApiVersion>, key: string, uuid: string): Promise<void> {
    const { ledger } = this.#options;
    try {
      const order = await client.waitForOrder(uuid, this.#waitOptions(key));
      ledger.read(key, order.id);
    } catch (error) {
      if (isOrderCreationFailedError(error)) {
        ledger.close(key, 'creation-failed', error.vendorMessage);
        return;
      }
      if (isOrderWaitTimeoutError(error)) {
        throw new ArrangeError(
          'not-verifiable',
          `order ${uuid}, for a product no vendor sells, neither failed nor became readable within ${seconds(error.waitedMs)}`,
        );
      }
      throw unavailable(error);
    }
    throw new ArrangeError(
      'not-verifiable',
      `the target processed order ${uuid} for a product no vendor sells, so its creation did not fail`,
    );
  }

  #waitOptions(key: string) {
    const { ledger, pollIntervalMs, signal } = this.#options;
    const deadline = Date.parse(ledger.get(key)?.deadline ?? '') || Date.now();
    return {
      timeoutMs: Math.max(0, deadline - Date.now()),
      intervalMs: Math.min(25, pollIntervalMs),
      maxIntervalMs: pollIntervalMs,
      signal,
    };
  }
}

/**
 * An error met while arranging, as a verdict: no answer, or a 429 or 5xx after the client's
 * retries, means the target is unavailable; an answer that breaks the client's schema broke
 * the contract; anything else (a refusal) leaves the state out of reach here.
 */
export function unavailable(error: unknown): ArrangeError {
  if (isArrangeError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  if (isResponseValidationError(error)) {
    return new ArrangeError('failed', `the target's answer breaks the contract: ${message}`, {
      cause: error,
    });
  }
  const down =
    isTransportError(error) || (isHttpError(error) && (error.status >= 500 || error.status === 429));
  return new ArrangeError(down ? 'target-unavailable' : 'not-verifiable', message, { cause: error });
}
