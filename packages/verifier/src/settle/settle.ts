import type { LedgerOutcome } from '../ledger/ledger.js';
import type { TargetClients } from '../target/clients.js';
import { describeEntry, type SettleContext, settleOrders } from './settle-orders.js';

/** The settle stage's result: what the run created, and what is left of it. */
export interface Settlement {
  /** Creates the run sent that the target did not refuse (arranged and replayed). */
  readonly created: number;
  /** How the orders this run created ended, by outcome; those still open are not in it. */
  readonly ended: Readonly<Partial<Record<LedgerOutcome, number>>>;
  /** Orders still open in the ledger (this run's and earlier ones'). */
  readonly open: number;
  readonly problems: readonly string[];
  /** The ledger file, when it still exists. */
  readonly ledger: string | undefined;
}

export interface SettleStageOptions extends Omit<SettleContext, 'clientsFor'> {
  readonly clients: TargetClients;
  /** The embedded sample API's base URL: its orders end with it. */
  readonly embedded: string | undefined;
  /** Ends the waits early (a second signal, or the interrupt's budget). */
  readonly signal: AbortSignal;
}

/**
 * The settle stage: cancels every order of this run still open; one whose create got no answer
 * stays for `--cleanup`, which finds it by the run's reference. An empty ledger is removed.
 */
export async function settle(options: SettleStageOptions): Promise<Settlement> {
  const { ledger, clients } = options;
  const mine = () => ledger.open().filter((entry) => entry.run === ledger.run);
  const problems = await settleOrders(mine(), {
    ...options,
    clientsFor: (entry) => (entry.target === clients.target.baseUrl ? clients : undefined),
  });
  for (const entry of mine()) {
    if (entry.embedded && entry.target === options.embedded) {
      ledger.close(entry.key, 'gone', 'the embedded sample API ends with the run');
    } else if (entry.uuid === undefined) {
      problems.push(
        `${describeEntry(entry)}: its create got no answer (${entry.unresolved ?? 'the run ended first'}); pnpm verify --cleanup finds it by the run's reference "${entry.reference}"`,
      );
    }
  }
  const removed = ledger.removeIfSettled();
  const created = ledger.mine().filter((entry) => entry.outcome !== 'not-created');
  const ended: Partial<Record<LedgerOutcome, number>> = {};
  for (const { outcome } of created) if (outcome) ended[outcome] = (ended[outcome] ?? 0) + 1;
  return {
    created: created.length,
    ended,
    open: ledger.open().length,
    problems,
    ledger: removed ? undefined : ledger.path,
  };
}
