/**
 * What a verifier needs of the control surface, without loading the simulator: where it lives,
 * which states it can put an order in, and the path that does so. Exported as
 * `@print-contracts/sample-api/control-surface`; it imports nothing at run time.
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

/** Answers 200 on any control surface: where a verifier checks that a declared one exists. */
export const FAULTS_PATH = `${CONTROL_BASE_PATH}/faults`;

/** The path of `POST` `{"state": …}`, which puts the order `uuid` (or numeric id) into a control state. */
export const controlStatePath = (uuid: string): string =>
  `${CONTROL_BASE_PATH}/orders/${encodeURIComponent(uuid)}/state`;
