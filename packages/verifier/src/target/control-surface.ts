import { type ControlState, postControlState } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { ArrangeError } from '../errors/arrange-error.js';

/** Puts an order into a state the public API cannot reach; a refusal makes it not verifiable here. */
export async function setControlState(
  dispatcher: Dispatcher,
  origin: string,
  uuid: string,
  state: ControlState,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<void> {
  const answer = await postControlState(dispatcher, origin, uuid, state, options);
  if (!answer.ok) {
    throw new ArrangeError(
      'not-verifiable',
      `the control surface answered ${answer.status} to "${state}": ${answer.message}`,
      { notVerifiable: 'no-control-surface' },
    );
  }
}
