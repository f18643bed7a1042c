import type { OrdersClientOptions } from '@print-contracts/client';

/**
 * What a verifier needs of the control surface, without loading the simulator: where it lives,
 * which states it can put an order in, and a request that does so. Exported as
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

/** undici's dispatcher, named through the client (undici is only a dev dependency here). */
type Dispatcher = NonNullable<OrdersClientOptions['dispatcher']>;

/**
 * `POST /__control/orders/{uuid}/state` at `origin`. A refusal is returned, not thrown: `ok`
 * false, with the status and the answer's message (or the start of its text).
 */
export async function postControlState(
  dispatcher: Dispatcher,
  origin: string,
  uuid: string,
  state: ControlState,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ ok: boolean; status: number; message: string }> {
  const response = await dispatcher.request({
    origin,
    path: `${CONTROL_BASE_PATH}/orders/${encodeURIComponent(uuid)}/state`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state }),
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
    signal: options.signal,
  });
  const text = await response.body.text();
  let message = text.slice(0, 200);
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {
    // Not JSON: keep the text.
  }
  const status = response.statusCode;
  return { ok: status >= 200 && status <= 299, status, message };
}
