import { findProviderState } from '@print-contracts/client';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { type Answer, jsonAnswer } from '../http/answer.js';
import type { OrderRecord } from '../store/order-record.js';
import type { OrderStore } from '../store/order-store.js';
import { parseStateChange } from './state-change-request.js';
import { KNOWN_STATES, stateHandlerFor } from './state-handlers.js';

/** The same state with the same params: what a teardown names to undo its setup. */
const setupKey = (state: string, params: Readonly<Record<string, unknown>>) =>
  `${state}\u0000${JSON.stringify(params)}`;

/**
 * Provider states in the standard Pact state-change protocol, the one the official verifiers
 * speak (`pact verifier --state-change-url … --state-change-teardown`, pact-js
 * `providerStatesSetupUrl`): a POST of `{state, params, action}` per state, `setup` before the
 * interaction and `teardown` after it. A setup answers the state's values as a JSON object,
 * which the verifier injects where the pact says `fromProviderState` (`${id}`, `${uuid}`); a
 * teardown removes the orders its setup added. An interaction without a state (`state: ""`)
 * needs nothing. An unknown state, bad params or a state this store cannot reach is a 4xx
 * with a message; the verifier then fails that interaction.
 */
export class ProviderStateEndpoint {
  readonly #store: OrderStore;
  /** Orders each setup added, oldest setup first, until its teardown. */
  readonly #pending = new Map<string, (readonly OrderRecord[])[]>();

  constructor(store: OrderStore) {
    this.#store = store;
  }

  /** Handles one state-change call. */
  change(body: unknown, now: number = Date.now()): Answer {
    const { state, params, action } = parseStateChange(body);
    if (state === '') return jsonAnswer(200, {});
    const handler = stateHandlerFor(state);
    if (handler === undefined) {
      throw new ApiAnswerError(
        400,
        `Unknown provider state "${state.slice(0, 200)}"; known states: ${KNOWN_STATES.map((name) => `"${name}"`).join(', ')}`,
      );
    }
    const key = setupKey(state, params);
    if (action === 'teardown') {
      // The oldest setup of this state is the one most likely finished with.
      const orders = this.#pending.get(key)?.shift() ?? [];
      if (this.#pending.get(key)?.length === 0) this.#pending.delete(key);
      for (const record of orders) this.#store.remove(record);
      return jsonAnswer(200, { removed: orders.map((record) => record.detail.id) });
    }
    const outcome = handler(params, { store: this.#store, now });
    if (outcome.created.length > 0) {
      const list = this.#pending.get(key) ?? [];
      list.push(outcome.created);
      this.#pending.set(key, list);
    }
    return jsonAnswer(200, outcome.values);
  }

  /** What a person (or a tool) asking `GET` learns: the states, their params and values, the caller. */
  describe(): Answer {
    const [caller, other] = this.#store.userIds;
    return jsonAnswer(200, {
      protocol:
        'POST {"state", "params", "action": "setup" | "teardown"}; a setup answers the values to inject',
      caller,
      otherCredentialSet: other ?? null,
      states: KNOWN_STATES.map((name) => {
        const definition = findProviderState(name);
        return { name, params: definition?.params ?? [], provides: definition?.provides ?? [] };
      }),
    });
  }
}
