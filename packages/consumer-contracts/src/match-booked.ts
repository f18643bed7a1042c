import { setTimeout as sleep } from 'node:timers/promises';
import { type ConsumerPact, makeConsumerPact } from '@pact-foundation/pact-core';
import { CONSUMER_NAME } from '@print-contracts/client';

/** How long, by default, a served request may take to be booked before it counts as not received. */
export const MATCH_BOOKKEEPING_TIMEOUT_MS = 2_000;
const POLL_MS = 2;

let core: ConsumerPact | undefined;

/**
 * Resolves once the mock server on `port` has booked every expected request as matched, or
 * after `timeoutMs` (then pact-js reports what is missing). Asks by port through pact-core's
 * public consumer API, which reaches every mock server in the process; with a core that books
 * before answering, the first ask already says yes.
 */
export async function matchBooked(port: number, timeoutMs = MATCH_BOOKKEEPING_TIMEOUT_MS): Promise<void> {
  core ??= makeConsumerPact(CONSUMER_NAME, 'mock-server-bookkeeping');
  const deadline = Date.now() + timeoutMs;
  while (!core.mockServerMatchedSuccessfully(port) && Date.now() < deadline) {
    await sleep(POLL_MS);
  }
}
