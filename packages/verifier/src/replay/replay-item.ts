import type { FixtureResult } from '../arrange/fixture-result.js';
import type { PlannedInteraction } from '../plan/plan.js';

/** One request the proxy forwarded (or refused) for an interaction. */
export interface Exchange {
  readonly method: string;
  /** Path on the target, below its origin. */
  readonly path: string;
  readonly status: number | undefined;
  readonly ms: number;
  /** Why no answer of the target reached Pact (timeout, reset, a safety refusal). */
  readonly failure: string | undefined;
}

/** What happened to one interaction during the replay, as the proxy and the state endpoint saw it. */
export interface ReplayRecord {
  started: boolean;
  /** The state endpoint refused the interaction: its fixture could not be arranged. */
  refused: FixtureResult | undefined;
  readonly exchanges: Exchange[];
}

/** An interaction Pact replays, with the fixture results of its states. */
export interface ReplayItem {
  readonly planned: PlannedInteraction;
  /** Aligned with the interaction's states; undefined where the state needs nothing. */
  readonly states: readonly (FixtureResult | undefined)[];
  readonly record: ReplayRecord;
}
