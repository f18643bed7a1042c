/**
 * What a verifier needs to know of the control surface, without loading the simulator: where
 * it lives and which states it can put an order in. Exported as
 * `@print-contracts/sample-api/control-surface`.
 */

/** Where the control surface lives: outside `/api`, so no vendor path can collide with it. */
export const CONTROL_BASE_PATH = '/__control';

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
