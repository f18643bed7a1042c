import { type ControlState, controlStatePath } from '@print-contracts/sample-api/control-surface';
import { ArrangeError } from '../errors/index.js';
import type { TargetClients } from './clients.js';
import { type Lost, sendWithRetries } from './transport.js';

/**
 * Puts an order into a state the public API cannot reach, through the run's one transport (a
 * busy control surface is waited out like the API); a refusal makes it not verifiable here, no
 * answer makes it unavailable, and a stop leaves it not run: none of them is the contract's verdict.
 */
export async function setControlState(
  clients: Pick<TargetClients, 'dispatcher' | 'transport' | 'timeoutMs'>,
  origin: string,
  uuid: string,
  state: ControlState,
  signal: AbortSignal,
): Promise<void> {
  const request = {
    origin,
    path: controlStatePath(uuid),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state }),
  } as const;
  const { last, aborted } = await sendWithRetries(clients.dispatcher, request, clients.transport, {
    timeoutMs: clients.timeoutMs,
    signal,
  });
  if (aborted || signal.aborted) {
    throw new ArrangeError(
      'not-run',
      `the run was stopped while the control surface was asked for "${state}"`,
    );
  }
  if (!last.answered) {
    const { failure, cause } = last.error as Lost;
    throw new ArrangeError(
      'target-unavailable',
      `the control surface gave no answer to "${state}": ${failure}`,
      {
        cause,
      },
    );
  }
  if (last.status < 200 || last.status > 299) {
    const text = last.value.body.toString('utf8');
    throw new ArrangeError(
      'not-verifiable',
      `the control surface answered ${last.status} to "${state}": ${messageOf(text)}`,
      { notVerifiable: 'no-control-surface' },
    );
  }
}

/** The `message` of a JSON answer, or the start of its text. */
function messageOf(text: string): string {
  try {
    const { message } = JSON.parse(text) as { message?: unknown };
    if (typeof message === 'string') return message;
  } catch {
    // Not JSON: the text itself.
  }
  return text.slice(0, 200);
}
