import { withRetries } from '@print-contracts/client';
import { describeTransportFailure, notConnected } from '@print-contracts/client/kit';
import { type ControlState, postControlState } from '@print-contracts/sample-api/control-surface';
import type { Dispatcher } from 'undici';
import { ArrangeError } from '../errors/index.js';
import type { Transport } from './transport.js';

/**
 * Puts an order into a state the public API cannot reach, through the run's one retry rule (a
 * busy control surface is waited out like the API); a refusal makes it not verifiable here, no
 * answer makes it unavailable, and a stop leaves it not run: none of them is the contract's verdict.
 */
export async function setControlState(
  dispatcher: Dispatcher,
  origin: string,
  uuid: string,
  state: ControlState,
  options: { timeoutMs: number; signal?: AbortSignal; transport: Transport },
): Promise<void> {
  const { transport, ...request } = options;
  const { last, aborted } = await withRetries(
    () =>
      postControlState(dispatcher, origin, uuid, state, request).then(
        (answer) => ({
          answered: true as const,
          status: answer.status,
          retryAfterSeconds: undefined,
          value: answer,
        }),
        (error: unknown) => ({ answered: false as const, unsent: notConnected(error), error }),
      ),
    {
      method: 'POST',
      path: `control surface: ${state}`,
      policy: transport.retry,
      signal: options.signal,
      onRetry: transport.onRetry,
    },
  );
  if (aborted || options.signal?.aborted) {
    throw new ArrangeError(
      'not-run',
      `the run was stopped while the control surface was asked for "${state}"`,
    );
  }
  if (!last.answered) {
    const why = describeTransportFailure(last.error);
    throw new ArrangeError('target-unavailable', `the control surface gave no answer to "${state}": ${why}`, {
      cause: last.error,
    });
  }
  const answer = last.value;
  if (!answer.ok) {
    throw new ArrangeError(
      'not-verifiable',
      `the control surface answered ${answer.status} to "${state}": ${answer.message}`,
      { notVerifiable: 'no-control-surface' },
    );
  }
}
