import {
  bodyText,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  isResponseValidationError,
  redact,
} from '@print-contracts/client';
import type { Ledger, LedgerEntry, LedgerOutcome } from '../ledger/ledger.js';
import type { TargetClients } from '../target/clients.js';
import { setControlState } from '../target/control-surface.js';

export interface SettleContext {
  readonly ledger: Ledger;
  /** Clients for the entry's target and credential set; undefined when its credentials are unknown. */
  readonly clientsFor: (entry: LedgerEntry) => TargetClients | undefined;
  readonly pollIntervalMs: number;
  readonly secrets: readonly string[];
  readonly signal?: AbortSignal;
}

/** How an entry is crossed off, or why it stays open. */
type Ending = readonly [outcome: LedgerOutcome, note?: string] | string;

const REASON = 'Cleanup by the contract verifier';
const CREATION_FAILED = /fail/i;
const CONCURRENCY = 8;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `order 1f2e… (state "an order exists", v2, https://…/api)` */
export const describeEntry = (entry: LedgerEntry) =>
  `order ${entry.uuid ?? '(uuid unknown)'} (${entry.source}, ${entry.version}, ${entry.target})`;

/**
 * Cancels every entry with a uuid, a few at a time, and crosses it off; returns why each one that
 * stays open does. Entries without a uuid are left to `--cleanup`'s scan by reference.
 */
export async function settleOrders(
  entries: readonly LedgerEntry[],
  context: SettleContext,
): Promise<string[]> {
  const problems: string[] = [];
  const queue = entries.filter((entry) => entry.uuid !== undefined);
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      const problem = await settleOne(entry, entry.uuid as string, context)
        .then((ending) => (typeof ending === 'string' ? ending : context.ledger.close(entry.key, ...ending)))
        .catch(message);
      if (problem) problems.push(redact(`${describeEntry(entry)}: ${problem}`, context.secrets));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return problems;
}

/**
 * Cancels one order (through the control surface when it moved the order on). One still being
 * created is waited for until its ledger deadline; a 404 past it is an order the vendor will never place.
 */
async function settleOne(entry: LedgerEntry, uuid: string, context: SettleContext): Promise<Ending> {
  const { signal } = context;
  const clients = context.clientsFor(entry);
  if (!clients) return `no ${entry.credential} credentials for ${entry.target} to cancel it with`;
  if (entry.controlled) {
    if (!entry.controlOrigin) return 'it was moved on through a control surface that is not known';
    await setControlState(clients.dispatcher, entry.controlOrigin, uuid, 'cancelled', {
      timeoutMs: 10_000,
      signal,
    });
    return ['cancelled', 'through the control surface'];
  }
  const client = clients.client(entry.credential, entry.version);
  const refusal = await client.cancelOrder(uuid, REASON, { signal }).then(
    () => undefined,
    (error: unknown) => {
      if (isHttpError(error)) return error;
      throw error;
    },
  );
  if (!refusal) return ['cancelled'];
  if (refusal.status !== 404) {
    // A refusal of an order already cancelled (the 500 "Cancel order failed") is no problem.
    const order = await client.getOrder(uuid, { signal }).catch(() => undefined);
    return order?.status === 'cancelled'
      ? ['cancelled', 'found cancelled']
      : `cancel refused: ${refusal.message}`;
  }
  // The docs: a 404 "with an error message that the order creation has failed".
  if (CREATION_FAILED.test(bodyText(refusal.body))) return ['creation-failed', refusal.vendorMessage];
  // Any other 404: the order may still be in its asynchronous creation.
  const deadline = Date.parse(entry.deadline) || Date.now();
  try {
    const order = await client
      .waitForOrder(uuid, {
        timeoutMs: Math.max(0, deadline - Date.now()),
        maxIntervalMs: context.pollIntervalMs,
        signal,
      })
      // A 2xx whose body breaks the schema still says the order exists: cancel it all the same.
      .catch((error: unknown) => {
        if (isResponseValidationError(error)) return undefined;
        throw error;
      });
    if (order?.status !== 'cancelled') await client.cancelOrder(uuid, REASON, { signal });
    return ['cancelled'];
  } catch (error) {
    if (isOrderCreationFailedError(error)) return ['creation-failed', error.vendorMessage];
    // Its wait ran to the deadline. The docs: still 404 then, the order cannot be placed.
    if (isOrderWaitTimeoutError(error))
      return ['not-found', `still 404 past its creation deadline ${entry.deadline}`];
    return `not cancelled: ${message(error)}`;
  }
}
