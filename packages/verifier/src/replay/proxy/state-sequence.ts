import { canonicalJson } from '@print-contracts/consumer-contracts/vocabulary';
import type { StateValues } from '../../arrange/arrange.js';
import type { StateRef } from '../../pacts/interaction.js';

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

/** One state-change call Pact is expected to make, in order. */
interface ExpectedCall {
  readonly item: SequenceItem;
  /** The state name, or '' for an interaction without states (Pact still calls once). */
  readonly state: string;
  readonly params: string;
  /** Index into the item's states; -1 for the stateless call. */
  readonly stateIndex: number;
}

/** What the state endpoint answers to one call. */
export type StateAnswer =
  | { readonly status: 200; readonly values: StateValues; readonly item: SequenceItem }
  /** 4xx, which Pact does not retry: it fails the interaction without sending its request. */
  | { readonly status: 409 | 422; readonly message: string; readonly item: SequenceItem | undefined };

/**
 * Maps Pact's state-change calls to interactions. Before each interaction, in file order, Pact
 * posts one setup call per provider state (one with an empty state when it has none) without
 * naming the interaction; the sequence expects exactly that series, and a call that does not
 * match stops the replay loudly instead of guessing.
 */
export class StateSequence {
  readonly #expected: ExpectedCall[];
  #cursor = 0;
  #broken: string | undefined;
  /** The interaction whose request comes next: the last one whose state call arrived. */
  current: SequenceItem | undefined;

  constructor(items: readonly SequenceItem[]) {
    this.#expected = items.flatMap((item): ExpectedCall[] => {
      if (item.states.length === 0) return [{ item, state: '', params: canonicalJson({}), stateIndex: -1 }];
      return item.states.map((state, stateIndex) => ({
        item,
        state: state.name,
        params: canonicalJson(state.params),
        stateIndex,
      }));
    });
  }

  /** Why the sequence stopped, if it did. */
  get broken(): string | undefined {
    return this.#broken;
  }

  /** Answers one setup call `{state, params}`. */
  setup(state: unknown, params: unknown): StateAnswer {
    if (this.#broken) return { status: 409, message: this.#broken, item: undefined };
    const expected = this.#expected[this.#cursor];
    const got = `"${String(state)}" ${canonicalJson(params)}`;
    if (!expected || expected.state !== state || expected.params !== canonicalJson(params)) {
      this.#broken = expected
        ? `Pact's state calls went out of step: expected "${expected.state}" ${expected.params} for "${expected.item.description}", got ${got}`
        : `Pact made an unexpected extra state call ${got}`;
      this.current = undefined;
      return { status: 409, message: this.#broken, item: undefined };
    }
    this.#cursor++;
    const { item } = expected;
    this.current = item;
    if (item.refusal !== undefined) return { status: 422, message: item.refusal, item };
    if (expected.stateIndex < 0) return { status: 200, values: {}, item };
    return { status: 200, values: item.values[expected.stateIndex] ?? {}, item };
  }
}
