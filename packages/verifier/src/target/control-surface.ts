import type { ControlState } from '@print-contracts/sample-api/control-surface';
import { CONTROL_BASE_PATH } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { ArrangeError } from '../errors/arrange-error.js';

/**
 * The sample API's control surface (outside `/api`): puts an order into a state the public
 * API cannot reach. Only used on targets that declare it (`--control`, or the embedded one).
 */
export async function setControlState(
  dispatcher: Dispatcher,
  origin: string,
  uuid: string,
  state: ControlState,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
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
  if (response.statusCode < 200 || response.statusCode > 299) {
    let message = text.slice(0, 200);
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? message;
    } catch {
      // Not JSON: keep the text.
    }
    throw new ArrangeError(
      'not-verifiable',
      `the control surface answered ${response.statusCode} to "${state}": ${message}`,
    );
  }
}
