import { canonicalJson, parseStateChange } from '@print-contracts/client/kit';
import type { StateValues } from '../../arrange/arrange.js';
import type { StateRef } from '../../pacts/interaction.js';

/** Where Pact posts its state-change calls: outside the API base path, so no contract path can collide. */
export const STATE_PATH = '/__verifier/provider-state';

/** One interaction as the state endpoint sees it: its states, and what each hands to Pact. */
export interface SequenceItem {
  readonly id: string;
  readonly description: string;
  readonly states: readonly StateRef[];
  /** Aligned with `states`; undefined where a state hands nothing. */
  readonly values: readonly (StateValues | undefined)[];
  /** Set for an interaction that must not be replayed: its state call is refused with this reason. */
  readonly refusal: string | undefined;
}

/** What the state endpoint answers: a 4xx, which Pact does not retry, fails the interaction unsent. */
export type StateAnswer =
  | { readonly status: 200; readonly values: StateValues }
  | { readonly status: 409 | 422; readonly message: string };

/**
 * Maps Pact's state-change calls to interactions. Before each interaction, in file order, Pact
 * posts one setup call per provider state (one with an empty state when it has none) without
 * naming the interaction; a call out of that series stops the replay loudly instead of guessing.
 */
export class StateSequence {
  readonly #expected: { item: SequenceItem; state: string; params: string; values: StateValues }[];
  #cursor = 0;
  #broken: string | undefined;
  /** The interaction whose request comes next: the last one whose state call arrived. */
  current: SequenceItem | undefined;

  constructor(items: readonly SequenceItem[]) {
    this.#expected = items.flatMap((item) =>
      (item.states.length > 0 ? item.states : [{ name: '', params: {} }]).map((state, index) => ({
        item,
        state: state.name,
        params: canonicalJson(state.params),
        values: item.values[index] ?? {},
      })),
    );
  }

  /** Why the sequence stopped, if it did. */
  get broken(): string | undefined {
    return this.#broken;
  }

  /**
   * Answers a state-change call `{state, params, action}`: a setup from the sequence; a teardown with
   * nothing (the settle stage tears down). Never 5xx: Pact retries those, and the sequence would slip.
   */
  answer(body: unknown): StateAnswer {
    const call = parseStateChange(body);
    if (!call.ok) {
      const fields = call.issues.map((issue) => `${issue.path || 'body'} ${issue.message}`).join('; ');
      return { status: 422, message: `invalid state change: ${fields}` };
    }
    const { state, params, action } = call.request;
    return action === 'setup' ? this.setup(state, params) : { status: 200, values: {} };
  }

  /** Answers one setup call `{state, params}`. */
  setup(state: unknown, params: unknown): StateAnswer {
    const expected = this.#expected[this.#cursor];
    if (!this.#broken && expected && expected.state === state && expected.params === canonicalJson(params)) {
      this.#cursor++;
      this.current = expected.item;
      const { refusal } = expected.item;
      return refusal === undefined
        ? { status: 200, values: expected.values }
        : { status: 422, message: refusal };
    }
    const got = `"${String(state)}" ${canonicalJson(params)}`;
    this.#broken ??= expected
      ? `Pact's state calls went out of step: expected "${expected.state}" ${expected.params} for "${expected.item.description}", got ${got}`
      : `Pact made an unexpected extra state call ${got}`;
    this.current = undefined;
    return { status: 409, message: this.#broken };
  }
}
