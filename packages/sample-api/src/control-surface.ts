/**
 * What a verifier needs to know of the control surface, without loading the simulator: where
 * it lives and which states it can put an order in. Exported as
 * `@print-contracts/sample-api/control-surface`.
 */

/** Where the control surface lives: outside `/api`, so no vendor path can collide with it. */
export const CONTROL_BASE_PATH = '/__control';

/**
 * The provider-state endpoint in the standard Pact state-change protocol: what the official
 * verifiers take as `--state-change-url` (with `--state-change-teardown`).
 */
export const PROVIDER_STATES_PATH = `${CONTROL_BASE_PATH}/provider-states`;

/**
 * States the control surface can put an order in, including those the public API cannot
 * reach (in production, shipped, creation failed).
 */
export const CONTROL_STATES = [
  'processing',
  'in-production',
  'shipped',
  'completed',
  'cancelled',
  'creation-failed',
] as const;
export type ControlState = (typeof CONTROL_STATES)[number];
