import {
  type ApiVersion,
  isHttpError,
  isOrderCreationFailedError,
  isResponseValidationError,
  type OrdersClient,
  redact,
} from '@print-contracts/client';
import { setControlState } from '../arrange/control-surface.js';
import type { TargetClients } from '../arrange/target-clients.js';
import type { Ledger, LedgerEntry } from './ledger.js';

export interface SettleContext {
  readonly ledger: Ledger;
  /** Clients for the entry's target and credential set; undefined when its credentials are unknown. */
  readonly clientsFor: (entry: LedgerEntry) => TargetClients | undefined;
  /** Base URL of an embedded sample API that is still running (its orders can be cancelled). */
  readonly runningEmbedded: string | undefined;
  /** Longest wait for an order still being created before it can be cancelled. */
  readonly waitMs: number;
  readonly pollIntervalMs: number;
  /** Entries whose uuid was never known: `abandon` crosses them off with a note (for `--cleanup`). */
  readonly unresolved: 'keep' | 'abandon';
  readonly secrets: readonly string[];
  readonly signal?: AbortSignal;
}

export interface SettleOutcome {
  readonly settled: number;
  readonly problems: readonly string[];
}

const REASON = 'Cleanup by the contract verifier';
const CONCURRENCY = 8;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Cancels every order of `entries` and crosses it off the ledger: orders the control surface
 * moved on (in production, completed) are cancelled through it; others through the public
 * API, after waiting for an order still being created. An order that cannot be settled
 * stays open, with a problem line saying why.
 */
export async function settleOrders(
  entries: readonly LedgerEntry[],
  context: SettleContext,
): Promise<SettleOutcome> {
  const problems: string[] = [];
  let settled = 0;
  const queue = [...entries];
  const worker = async () => {
    for (let entry = queue.shift(); entry; entry = queue.shift()) {
      try {
        const problem = await settleOne(entry, context);
        if (problem) problems.push(redact(`${describe(entry)}: ${problem}`, context.secrets));
        else settled++;
      } catch (error) {
        problems.push(redact(`${describe(entry)}: ${message(error)}`, context.secrets));
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { settled, problems };
}

function describe(entry: LedgerEntry): string {
  return `order ${entry.uuid ?? '(uuid unknown)'} (${entry.source}, ${entry.version}, ${entry.target})`;
}

/** Settles one entry; returns the problem when it stays open. */
async function settleOne(entry: LedgerEntry, context: SettleContext): Promise<string | undefined> {
  const { ledger } = context;
  if (entry.embedded && entry.target !== context.runningEmbedded) {
    ledger.close(entry.key, 'gone', 'the embedded sample API ended with its run');
    return undefined;
  }
  if (!entry.uuid) {
    const why = entry.unresolved ?? 'the run ended before the create request was answered';
    if (context.unresolved === 'abandon') {
      ledger.close(entry.key, 'abandoned', why);
      return `cannot be cancelled, its uuid was never known (${why}); removed from the ledger: check the target for an order created at ${entry.createdAt}`;
    }
    return `cannot be cancelled yet, its uuid is unknown (${why})`;
  }
  const clients = context.clientsFor(entry);
  if (!clients) return `no ${entry.credential} credentials for ${entry.target} to cancel it with`;
  if (entry.controlled) {
    if (!entry.controlOrigin) return 'it was moved on through a control surface that is not known';
    await setControlState(clients.dispatcher, entry.controlOrigin, entry.uuid, 'cancelled', {
      timeoutMs: 10_000,
      signal: context.signal,
    });
    ledger.close(entry.key, 'cancelled', 'through the control surface');
    return undefined;
  }
  const client = clients.client(entry.credential, entry.version);
  return cancel(entry, entry.uuid, client, context);
}

async function cancel(
  entry: LedgerEntry,
  uuid: string,
  client: OrdersClient<ApiVersion>,
  context: SettleContext,
): Promise<string | undefined> {
  const { ledger, signal } = context;
  try {
    await client.cancelOrder(uuid, REASON, { signal });
    ledger.close(entry.key, 'cancelled');
    return undefined;
  } catch (error) {
    if (!isHttpError(error)) throw error;
    if (error.status !== 404) {
      const order = await client.getOrder(uuid, { signal }).catch(() => undefined);
      // The 500 "Cancel order failed" (and any other refusal) of an order already cancelled is no problem.
      if (order?.status === 'cancelled') {
        ledger.close(entry.key, 'cancelled', 'found cancelled');
        return undefined;
      }
      return `cancel refused: ${error.message}`;
    }
  }
  // 404: the order may still be in its asynchronous creation.
  try {
    const order = await client
      .waitForOrder(uuid, { timeoutMs: context.waitMs, maxIntervalMs: context.pollIntervalMs, signal })
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
      ledger.close(entry.key, 'creation-failed');
      return undefined;
    }
    if (isHttpError(error) && error.status === 404 && error.method === 'DELETE') {
      ledger.close(
        entry.key,
        'not-found',
        'the target answers 404 to cancelling it after its creation window',
      );
      return undefined;
    }
    return `not cancelled: ${message(error)}`;
  }
}
