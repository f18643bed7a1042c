import type { StateAnswer, StateSequence } from './state-sequence.js';

/** Where Pact posts its state-change calls: outside the API base path, so no contract path can collide. */
export const STATE_PATH = '/__verifier/provider-state';

/**
 * Answers a state-change call `{state, params, action}`: a setup from the sequence; a teardown with
 * nothing (the settle stage tears down). Never 5xx: Pact retries those, and the sequence would slip.
 */
export function answerStateCall(sequence: StateSequence, body: unknown): StateAnswer {
  const call = (body ?? {}) as { action?: unknown; state?: unknown; params?: unknown };
  if (call.action !== undefined && call.action !== 'setup') return { status: 200, values: {} };
  return sequence.setup(call.state ?? '', call.params ?? {});
}
