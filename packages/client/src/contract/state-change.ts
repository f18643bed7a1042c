import { z } from 'zod';
import { type FieldIssue, toFieldIssues } from '../errors/issues.js';

/** What a state change asks for: arrange the state before an interaction, or undo it after. */
const STATE_CHANGE_ACTIONS = ['setup', 'teardown'] as const;
type StateChangeAction = (typeof STATE_CHANGE_ACTIONS)[number];

/** One state-change call of the Pact verifiers (`--state-change-url`, `providerStatesSetupUrl`). */
export interface StateChangeRequest {
  /** The state's name as the pact writes it; empty for an interaction without a state. */
  readonly state: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly action: StateChangeAction;
}

const stateName = z.string().max(1_000);

const stateChangeSchema = z
  .object({
    state: stateName.optional(),
    // The Ruby-era verifiers name the state in a one-item `states` list.
    states: z.array(stateName).max(1, 'must name one state per call').optional(),
    params: z.record(z.string(), z.unknown()).nullish(),
    // Pact's verifiers always send an action; an older one that sends none means a setup.
    action: z.enum(STATE_CHANGE_ACTIONS).optional(),
  })
  .refine((call) => call.state !== undefined || call.states !== undefined, {
    message: 'is required',
    path: ['state'],
  });

/**
 * Reads the JSON body a Pact verifier posts to a state-change URL, `{state, params, action}`:
 * one reading for every endpoint that speaks the protocol. Anything else gives the bad fields.
 */
export function parseStateChange(
  body: unknown,
):
  | { readonly ok: true; readonly request: StateChangeRequest }
  | { readonly ok: false; readonly issues: FieldIssue[] } {
  const parsed = stateChangeSchema.safeParse(body ?? {});
  if (!parsed.success) return { ok: false, issues: toFieldIssues(parsed.error.issues) };
  const { state, states, params, action } = parsed.data;
  return {
    ok: true,
    request: { state: state ?? states?.[0] ?? '', params: params ?? {}, action: action ?? 'setup' },
  };
}
