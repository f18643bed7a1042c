import { canonicalJson } from '@print-contracts/consumer-contracts/vocabulary';
import type { StateValues } from '../arrange/fixture-result.js';
import type { ReplayItem } from './replay-item.js';

/** One state-change call Pact is expected to make, in order. */
interface ExpectedCall {
  readonly item: ReplayItem;
  /** The state name, or '' for an interaction without states (Pact still calls once). */
  readonly state: string;
  readonly params: string;
  /** Index into the item's states; -1 for the stateless call. */
  readonly stateIndex: number;
}

/** What the state endpoint answers to one call. */
export type StateAnswer =
  | { readonly status: 200; readonly values: StateValues; readonly item: ReplayItem }
  /** 4xx, which Pact does not retry: it fails the interaction without sending its request. */
  | { readonly status: 409 | 422; readonly message: string; readonly item: ReplayItem | undefined };

/**
 * Maps Pact's state-change calls to interactions. Pact's verifier replays a pact file in
 * order and, before each interaction, posts one setup call per provider state (one with an
 * empty state when it has none), without saying which interaction it is about. The
 * sequence knows the order it wrote the shard in, so it expects exactly that series of
 * calls; a call that does not match stops the shard loudly instead of guessing.
 */
export class StateSequence {
  readonly #expected: ExpectedCall[];
  #cursor = 0;
  #broken: string | undefined;
  /** The interaction whose request comes next: the last one whose state call arrived. */
  current: ReplayItem | undefined;

  constructor(items: readonly ReplayItem[]) {
    this.#expected = items.flatMap((item): ExpectedCall[] => {
      const { states } = item.planned.interaction;
      if (states.length === 0) return [{ item, state: '', params: canonicalJson({}), stateIndex: -1 }];
      return states.map((state, stateIndex) => ({
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
        ? `Pact's state calls went out of step: expected "${expected.state}" ${expected.params} for "${expected.item.planned.interaction.description}", got ${got}`
        : `Pact made an unexpected extra state call ${got}`;
      this.current = undefined;
      return { status: 409, message: this.#broken, item: undefined };
    }
    this.#cursor++;
    const { item } = expected;
    this.current = item;
    item.record.started = true;
    // Only a broker pact filtered by description can bring an interaction the plan kept back.
    if (item.planned.status !== 'replay') {
      return { status: 422, message: item.planned.reason ?? 'not replayed here', item };
    }
    if (expected.stateIndex < 0) return { status: 200, values: {}, item };
    const result = item.states[expected.stateIndex];
    if (result === undefined) return { status: 200, values: {}, item };
    if (!result.ok) {
      item.record.refused ??= result;
      return { status: 422, message: result.reason, item };
    }
    return { status: 200, values: result.values, item };
  }
}
