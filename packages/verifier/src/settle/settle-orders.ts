import {
  type ApiVersion,
  bodyText,
  isHttpError,
  isOrderCreationFailedError,
  isOrderWaitTimeoutError,
  isResponseValidationError,
  type OrdersClient,
  redact,
} from '@print-contracts/client';
import type { Ledger, LedgerEntry } from '../ledger/ledger.js';
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

export interface SettleOutcome {
  /** Orders crossed off the ledger. */
  readonly settled: number;
  /** Why each order that stays open does. */
  readonly problems: readonly string[];
}

const REASON = 'Cleanup by the contract verifier';
const CREATION_FAILED = /fail/i;
const CONCURRENCY = 8;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** `order 1f2e… (state "an order exists", v2, https://…/api)` */
export const describeEntry = (entry: LedgerEntry) =>
  `order ${entry.uuid ?? '(uuid unknown)'} (${entry.source}, ${entry.version}, ${entry.target})`;

/**
 * Cancels every entry with a uuid (through the control surface when it moved the order on)
 * and crosses it off. An order still being created is waited for until its ledger deadline;
 * a 404 past it is an order the vendor will never place. One that cannot be settled stays
 * open, with a problem saying why. Entries without a uuid are left to `--cleanup`'s scan.
 */
export async function settleOrders(
  entries: readonly LedgerEntry[],
  context: SettleContext,
): Promise<SettleOutcome> {
  const problems: string[] = [];
  let settled = 0;
  const queue = entries.filter((entry) => entry.uuid !== undefined);
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      try {
        const problem = await settleOne(entry, entry.uuid as string, context);
        if (problem) problems.push(redact(`${describeEntry(entry)}: ${problem}`, context.secrets));
        else settled++;
      } catch (error) {
        problems.push(redact(`${describeEntry(entry)}: ${message(error)}`, context.secrets));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { settled, problems };
}

/** Settles one entry; returns the problem when it stays open. */
async function settleOne(
  entry: LedgerEntry,
  uuid: string,
  context: SettleContext,
): Promise<string | undefined> {
  const { ledger } = context;
  const clients = context.clientsFor(entry);
  if (!clients) return `no ${entry.credential} credentials for ${entry.target} to cancel it with`;
  if (entry.controlled) {
    if (!entry.controlOrigin) return 'it was moved on through a control surface that is not known';
    await setControlState(clients.dispatcher, entry.controlOrigin, uuid, 'cancelled', {
      timeoutMs: 10_000,
      signal: context.signal,
    });
    ledger.close(entry.key, 'cancelled', 'through the control surface');
    return undefined;
  }
  const client = clients.client(entry.credential, entry.version);
  try {
    await client.cancelOrder(uuid, REASON, { signal: context.signal });
    ledger.close(entry.key, 'cancelled');
    return undefined;
  } catch (error) {
    if (!isHttpError(error)) throw error;
    if (error.status !== 404) {
      // A refusal of an order already cancelled (the 500 "Cancel order failed") is no problem.
      const order = await client.getOrder(uuid, { signal: context.signal }).catch(() => undefined);
      if (order?.status !== 'cancelled') return `cancel refused: ${error.message}`;
      ledger.close(entry.key, 'cancelled', 'found cancelled');
      return undefined;
    }
    // The docs: a 404 "with an error message that the order creation has failed".
    if (CREATION_FAILED.test(bodyText(error.body))) {
      ledger.close(entry.key, 'creation-failed', error.vendorMessage);
      return undefined;
    }
  }
  return waitThenCancel(entry, uuid, client, context);
}

/** 404: the order may still be in its asynchronous creation; wait for it until its deadline. */
async function waitThenCancel(
  entry: LedgerEntry,
  uuid: string,
  client: OrdersClient<ApiVersion>,
  context: SettleContext,
): Promise<string | undefined> {
  const { ledger, signal } = context;
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
    ledger.close(entry.key, 'cancelled');
    return undefined;
  } catch (error) {
    if (isOrderCreationFailedError(error)) {
      ledger.close(entry.key, 'creation-failed', error.vendorMessage);
      return undefined;
    }
    if (isOrderWaitTimeoutError(error)) {
      // Its wait ran to the deadline. The docs: still 404 then, the order cannot be placed.
      ledger.close(entry.key, 'not-found', `still 404 past its creation deadline ${entry.deadline}`);
      return undefined;
    }
    return `not cancelled: ${message(error)}`;
  }
}
