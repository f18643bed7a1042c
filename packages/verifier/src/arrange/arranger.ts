import {
  type ApiVersion,
  isHttpError,
  isOrderCreationFailedError,
  isResponseValidationError,
  type OrdersClient,
  redact,
} from '@print-contracts/client';
import { findProviderState } from '@print-contracts/consumer-contracts/vocabulary';
import type { Ledger } from '../ledger/ledger.js';
import type { FixtureRequest, FixtureSpec } from '../plan/fixture-spec.js';
import { setControlState } from './control-surface.js';
import type { FixtureResult, StateValues } from './fixture-result.js';
import { fixtureOrder } from './order-fixture.js';
import type { TargetClients } from './target-clients.js';

export interface ArrangerOptions {
  readonly clients: TargetClients;
  readonly ledger: Ledger;
  /** Orders the run may create on the main credential set (for "fewer than N orders"). */
  readonly plannedCreates: number;
  /** Longest wait for one order's asynchronous creation. */
  readonly creationTimeoutMs: number;
  /** Longest pause between two polls of an order being created. */
  readonly pollIntervalMs: number;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  readonly secrets: readonly string[];
}

class ArrangeFailure extends Error {
  readonly verdict: 'failed' | 'not-verifiable';
  constructor(verdict: 'failed' | 'not-verifiable', message: string) {
    super(message);
    this.verdict = verdict;
  }
}

/**
 * Arranges fixtures on the target, each once, all at the same time: creates test orders
 * through the public API, waits for their asynchronous creation concurrently, and moves
 * them on through the control surface where a state needs it. Every error becomes a
 * `FixtureResult` that fails (or marks) the interactions relying on it: Pact JS would
 * replay with the example values instead, and could pass by accident.
 */
export class Arranger {
  readonly #options: ArrangerOptions;
  readonly #results = new Map<string, Promise<FixtureResult>>();
  readonly #counts = new Map<ApiVersion, Promise<number>>();

  constructor(options: ArrangerOptions) {
    this.#options = options;
  }

  /** The result of a fixture, arranging it on first request. */
  arrange(fixture: FixtureRequest): Promise<FixtureResult> {
    let result = this.#results.get(fixture.key);
    if (!result) {
      result = this.#run(fixture);
      this.#results.set(fixture.key, result);
    }
    return result;
  }

  async #run(fixture: FixtureRequest): Promise<FixtureResult> {
    const started = performance.now();
    const ms = () => Math.round(performance.now() - started);
    try {
      const values = await this.#build(fixture.version, fixture.spec, fixture.state);
      const definition = findProviderState(fixture.state);
      const missing = (definition?.provides ?? []).filter((name) => values[name] === undefined);
      if (missing.length > 0) {
        return {
          ok: false,
          verdict: 'failed',
          reason: `state "${fixture.label}" did not provide ${missing.join(', ')}`,
          ms: ms(),
        };
      }
      return { ok: true, values, ms: ms() };
    } catch (error) {
      const reason = redact(error instanceof Error ? error.message : String(error), this.#options.secrets);
      const verdict = error instanceof ArrangeFailure ? error.verdict : 'failed';
      return {
        ok: false,
        verdict,
        reason: `state "${fixture.label}" could not be arranged: ${reason}`,
        ms: ms(),
      };
    }
  }

  #build(version: ApiVersion, spec: FixtureSpec, state: string): Promise<StateValues> {
    switch (spec.kind) {
      case 'order':
        return this.#order(version, spec, state);
      case 'failed-order':
        return this.#failedOrder(version, state);
      case 'no-order':
        return this.#noOrder(version, spec.id);
      case 'fewer-orders':
        return this.#fewerOrders(version, spec.offset);
      case 'nothing':
        return Promise.resolve({});
    }
  }

  async #create(
    version: ApiVersion,
    role: 'main' | 'other',
    state: string,
    product: 'example' | 'unknown',
    controlled: boolean,
  ) {
    const { clients, ledger } = this.#options;
    const client = clients.client(role, version);
    const key = ledger.creating({
      target: clients.target.baseUrl,
      embedded: clients.target.kind === 'embedded',
      controlOrigin: controlled ? clients.target.controlOrigin : undefined,
      credential: role,
      version,
      source: `state "${state}"`,
    });
    let uuid: string;
    try {
      // Never aborted: a create the target may already have accepted must bring back its uuid.
      ({ uuid } = await client.createOrder(fixtureOrder(version, ledger.run, product) as never));
    } catch (error) {
      if (isHttpError(error)) ledger.close(key, 'not-created', `status ${error.status}`);
      else ledger.unresolved(key, error instanceof Error ? error.message : String(error));
      throw error;
    }
    ledger.created(key, uuid);
    return { client, key, uuid };
  }

  #wait(client: OrdersClient<ApiVersion>, uuid: string) {
    const { creationTimeoutMs, pollIntervalMs, signal } = this.#options;
    return client.waitForOrder(uuid, {
      timeoutMs: creationTimeoutMs,
      intervalMs: Math.min(25, pollIntervalMs),
      maxIntervalMs: pollIntervalMs,
      signal,
    });
  }

  async #order(version: ApiVersion, spec: Extract<FixtureSpec, { kind: 'order' }>, state: string) {
    const { clients, ledger, signal, timeoutMs } = this.#options;
    const controlled = spec.after === 'in-production' || spec.after === 'completed';
    const { client, key, uuid } = await this.#create(version, spec.credential, state, 'example', controlled);
    let order = await this.#wait(client, uuid);
    if (spec.after === 'cancel') {
      await client.cancelOrder(uuid, 'Arranged by the contract verifier', { signal });
      ledger.close(key, 'cancelled');
      order = await client.getOrder(uuid, { signal });
    } else if (controlled) {
      const origin = clients.target.controlOrigin;
      if (!origin) throw new ArrangeFailure('not-verifiable', 'the target has no control surface');
      ledger.controlled(key);
      await setControlState(clients.dispatcher, origin, uuid, spec.after, { timeoutMs, signal });
      order = await client.getOrder(uuid, { signal });
    }
    if (spec.expectStatus && order.status !== spec.expectStatus) {
      throw new Error(
        `the arranged order ${order.id} has status "${order.status}", not "${spec.expectStatus}"`,
      );
    }
    return { id: order.id, uuid: order.uuid ?? uuid };
  }

  async #failedOrder(version: ApiVersion, state: string) {
    const { ledger } = this.#options;
    const { client, key, uuid } = await this.#create(version, 'main', state, 'unknown', false);
    try {
      await this.#wait(client, uuid);
    } catch (error) {
      if (isOrderCreationFailedError(error)) {
        ledger.close(key, 'creation-failed');
        return { uuid };
      }
      throw error;
    }
    throw new Error(
      `the target processed order ${uuid} for a product no vendor sells, so its creation did not fail`,
    );
  }

  async #noOrder(version: ApiVersion, id: string) {
    const { clients, signal } = this.#options;
    try {
      await clients.client('main', version).getOrder(id, { signal, validate: false });
    } catch (error) {
      if (isHttpError(error) && error.status === 404) return {};
      if (!isResponseValidationError(error)) throw error;
    }
    throw new ArrangeFailure('not-verifiable', `an order with id ${id} exists on this target`);
  }

  async #fewerOrders(version: ApiVersion, offset: number) {
    let count = this.#counts.get(version);
    if (!count) {
      const { clients, signal } = this.#options;
      count = clients
        .client('main', version)
        .listOrders({ limit: 1 }, { signal })
        .then((page) => page.count);
      this.#counts.set(version, count);
    }
    const held = await count;
    const most = held + this.#options.plannedCreates;
    if (most >= offset) {
      throw new ArrangeFailure(
        'not-verifiable',
        `the caller holds ${held} orders and the run creates up to ${this.#options.plannedCreates}, not fewer than ${offset}`,
      );
    }
    return {};
  }
}
