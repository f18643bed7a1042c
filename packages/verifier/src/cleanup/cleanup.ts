import { redact } from '@print-contracts/client';
import { EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { Ledger, type LedgerEntry } from '../ledger/ledger.js';
import { mainCredentials, otherCredentials } from '../options/credentials.js';
import type { VerifyCommand } from '../options/verify-options.js';
import { describeEntry, settleOrders } from '../settle/settle-orders.js';
import { TargetClients } from '../target/clients.js';
import { scanByReference } from './reference-scan.js';

type CleanupCommand = Extract<VerifyCommand, { kind: 'cleanup' }>;

/** Where `--cleanup` writes, and what it reads credentials from. */
export interface CleanupIo {
  readonly say: (line: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Secrets it learns, for redaction by the caller too. */
  readonly secrets: string[];
}

/**
 * `pnpm verify --cleanup`: settles every order the ledger holds open, on its own target, with
 * the credentials of the environment or the flags; creates without a uuid are found by their
 * run's reference. Exits 0 when the ledger is empty afterwards, 1 while anything is unsure.
 */
export async function runCleanup(command: CleanupCommand, io: CleanupIo): Promise<ExitCode> {
  const ledger = Ledger.open(command.ledgerPath, 'cleanup', command.creationTimeoutMs);
  for (const entry of ledger.open()) {
    if (entry.embedded) ledger.close(entry.key, 'gone', 'the embedded sample API ended with its run');
  }
  const open = ledger.open();
  if (open.length === 0) {
    ledger.removeIfSettled();
    io.say(`The ledger ${command.ledgerPath} holds no open orders: nothing to clean up.`);
    return EXIT_CODES.passed;
  }
  const needs = (role: 'main' | 'other') => open.some((entry) => entry.credential === role);
  const main = needs('main') ? mainCredentials(command.credentialFlags, io.env, io.cwd) : undefined;
  const other = needs('other') ? otherCredentials(command.credentialFlags, io.env, io.cwd) : undefined;
  io.secrets.push(...[main?.secret, other?.secret].filter((value): value is string => Boolean(value)));
  io.say(`Cleanup: ${open.length} open orders in ${command.ledgerPath}`);

  const clients = new Map<string, TargetClients>();
  const clientsFor = (entry: LedgerEntry) => {
    if (!main) return undefined;
    let found = clients.get(entry.target);
    if (!found) {
      found = new TargetClients(
        {
          kind: 'url',
          baseUrl: entry.target,
          mode: 'sample',
          controlOrigin: entry.controlOrigin,
          credentials: { main, other },
        },
        command.requestTimeoutMs,
      );
      clients.set(entry.target, found);
    }
    return found;
  };
  try {
    const settled = await settleOrders(open, {
      ledger,
      clientsFor,
      pollIntervalMs: command.pollIntervalMs,
      secrets: io.secrets,
      signal: io.signal,
    });
    for (const problem of settled.problems) io.say(`  ${problem}`);
    await scanUnresolved(ledger, clientsFor, io);
    const left = ledger.open();
    const removed = ledger.removeIfSettled();
    for (const entry of left) io.say(`  still open: ${redact(describeEntry(entry), io.secrets)}`);
    io.say(
      `Cleanup: ${open.length - left.length} orders settled, ${left.length} still open${removed ? '; the ledger is empty and removed' : ` in ${ledger.path} (run it again later)`}.`,
    );
    return left.length === 0 ? EXIT_CODES.passed : EXIT_CODES.failed;
  } finally {
    await Promise.all([...clients.values()].map((client) => client.close()));
  }
}

/** Creates whose answer never came: found by their run's reference, per target, credential set and version. */
async function scanUnresolved(
  ledger: Ledger,
  clientsFor: (entry: LedgerEntry) => TargetClients | undefined,
  io: CleanupIo,
): Promise<void> {
  const groups = new Map<string, LedgerEntry[]>();
  for (const entry of ledger.open()) {
    if (entry.uuid !== undefined) continue;
    const key = `${entry.target}|${entry.credential}|${entry.version}|${entry.reference}`;
    groups.set(key, [...(groups.get(key) ?? []), entry]);
  }
  for (const entries of groups.values()) {
    const [first] = entries as [LedgerEntry];
    const clients = clientsFor(first);
    if (!clients || !first.reference) {
      io.say(
        `  ${entries.length} creates of ${first.target} without a uuid cannot be looked for: no credentials or no reference`,
      );
      continue;
    }
    io.say(
      `  ${entries.length} creates without a uuid: looking for orders with reference "${first.reference}" at ${first.target}`,
    );
    try {
      const outcome = await scanByReference(
        clients.client(first.credential, first.version),
        first.reference,
        {
          since: Math.min(...entries.map((entry) => Date.parse(entry.createdAt))),
          after: Math.max(...entries.map((entry) => Date.parse(entry.deadline) || 0)),
        },
        { signal: io.signal, say: io.say },
      );
      for (const problem of outcome.problems) io.say(`  ${redact(problem, io.secrets)}`);
      io.say(
        `  found ${outcome.cancelled.length + outcome.alreadySettled.length} orders with it: cancelled ${outcome.cancelled.length}, already cancelled ${outcome.alreadySettled.length}`,
      );
      if (outcome.complete) {
        for (const entry of entries) {
          ledger.close(entry.key, 'settled-by-reference', `scan found ${outcome.cancelled.length} to cancel`);
        }
      }
    } catch (error) {
      io.say(`  the scan for "${first.reference}" failed: ${redact((error as Error).message, io.secrets)}`);
    }
  }
}
