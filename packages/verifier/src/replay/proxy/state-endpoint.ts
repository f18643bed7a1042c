import { parseStateChange } from '@print-contracts/client';
import type { StateAnswer, StateSequence } from './state-sequence.js';

/** Where Pact posts its state-change calls: outside the API base path, so no contract path can collide. */
export const STATE_PATH = '/__verifier/provider-state';

/**
 * Answers a state-change call `{state, params, action}`: a setup from the sequence; a teardown with
 * nothing (the settle stage tears down). Never 5xx: Pact retries those, and the sequence would slip.
 */
export function answerStateCall(sequence: StateSequence, body: unknown): StateAnswer {
  const call = parseStateChange(body);
  if (!call.ok) {
    const fields = call.issues.map((issue) => `${issue.path || 'body'} ${issue.message}`).join('; ');
    return { status: 422, message: `invalid state change: ${fields}` };
  }
  const { state, params, action } = call.request;
  if (action !== 'setup') return { status: 200, values: {} };
  return sequence.setup(state, params);
}
