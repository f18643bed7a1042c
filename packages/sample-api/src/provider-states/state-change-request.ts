import { toFieldIssues } from '@print-contracts/client';
import { z } from 'zod';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { describeIssues } from '../handlers/issues.js';

/** What a state change asks for: arrange the state before an interaction, or undo it after. */
export const STATE_CHANGE_ACTIONS = ['setup', 'teardown'] as const;
export type StateChangeAction = (typeof STATE_CHANGE_ACTIONS)[number];

/** One state-change call of the Pact verifiers (`--state-change-url`, `providerStatesSetupUrl`). */
export interface StateChangeRequest {
  /** The state's name as the pact writes it; empty for an interaction without a state. */
  readonly state: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly action: StateChangeAction;
}

const stateChangeSchema = z.object({
  state: z.string().max(1_000),
  params: z.record(z.string(), z.unknown()).nullish(),
  // Pact's verifiers always send an action; an older one that sends none means a setup.
  action: z.enum(STATE_CHANGE_ACTIONS).optional(),
});

/**
 * Reads the JSON body the official Pact verifiers post, `{state, params, action}`; anything
 * else is a 400 that says which field is wrong.
 */
export function parseStateChange(body: unknown): StateChangeRequest {
  const parsed = stateChangeSchema.safeParse(body ?? {});
  if (!parsed.success) {
    const errors = toFieldIssues(parsed.error.issues);
    throw new ApiAnswerError(
      400,
      `Invalid state change: ${describeIssues(errors)}; send {"state": "…", "params": {…}, "action": "setup" | "teardown"}`,
      { errors },
    );
  }
  const { state, params, action } = parsed.data;
  return { state, params: params ?? {}, action: action ?? 'setup' };
}
