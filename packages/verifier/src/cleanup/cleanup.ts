import { setMaxListeners } from 'node:events';
import { existsSync } from 'node:fs';
import { redact } from '@print-contracts/client/kit';
import { EXIT_CODES, type ExitCode } from '../exit-codes.js';
import { Ledger } from '../ledger/ledger.js';
import { mainCredentials, otherCredentials } from '../options/credentials.js';
import type { VerifyCommand } from '../options/verify-options.js';
import { retriesText } from '../report/model.js';
import { describeEntry, type SettleContext, settleAndSweep } from '../settle/settle.js';
import { TargetClients } from '../target/clients.js';
import { retryTally, runRetryPolicy } from '../target/transport.js';

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
 * `pnpm verify --cleanup`: settles every order the ledger holds open, on its own target, with the
 * environment's or the flags' credentials. Exits 0 when the ledger is empty afterwards, else 1.
 */
export async function runCleanup(
  command: Extract<VerifyCommand, { kind: 'cleanup' }>,
  io: CleanupIo,
): Promise<ExitCode> {
  const say = (line: string) => io.say(redact(line, io.secrets));
  if (!existsSync(command.ledgerPath)) {
    // A run removes its ledger once nothing is open: the usual end, or a path that names no ledger.
    say(
      `No ledger at ${command.ledgerPath}: nothing to clean up (a run that settles every order removes its ledger; --ledger or --report-dir names another)`,
    );
    return EXIT_CODES.passed;
  }
  const ledger = Ledger.open(command.ledgerPath, 'cleanup', command.creationTimeoutMs);
  const gone = { outcome: 'gone', note: 'the embedded sample API ended with its run' } as const;
  for (const entry of ledger.open()) if (entry.embedded) ledger.record('closed', entry.key, gone);
  const open = ledger.open();
  if (open.length === 0) {
    ledger.removeIfSettled();
    say(`The ledger ${command.ledgerPath} holds no open orders: nothing to clean up.`);
    return EXIT_CODES.passed;
  }
  // The main set always (the reference scan lists with it); the second one when an order is its.
  const main = mainCredentials(command.credentialFlags, io.env, io.cwd);
  const needsOther = open.some((entry) => entry.credential === 'other');
  const other = needsOther ? otherCredentials(command.credentialFlags, io.env, io.cwd) : undefined;
  io.secrets.push(...[main.secret, other?.secret].filter((value): value is string => Boolean(value)));
  say(`Cleanup: ${open.length} open orders in ${command.ledgerPath}`);

  const clients = new Map<string, TargetClients>();
  const tally = retryTally(say);
  const retry = runRetryPolicy(command);
  for (const baseUrl of new Set(open.map((entry) => entry.target))) {
    const credentials = { main, other };
    const target = { kind: 'url', baseUrl, mode: 'sample', controlOrigin: undefined, credentials } as const;
    const transport = { retry, onRetry: tally.observe };
    clients.set(baseUrl, new TargetClients(target, command.requestTimeoutMs, transport));
  }
  // Every read and cancel in flight listens to it (the scan reads 8 at a time, each with its waits).
  const signal = AbortSignal.any([io.signal]);
  setMaxListeners(0, signal);
  const context: SettleContext = {
    ledger,
    clientsFor: (entry) => clients.get(entry.target),
    pollIntervalMs: command.pollIntervalMs,
    secrets: io.secrets,
    signal,
    say,
  };
  try {
    // Every entry of the runs left open, closed ones too: the sweep looks per credential set.
    const runs = [...new Set(open.map((entry) => entry.reference))].flatMap((ref) =>
      ledger.withReference(ref),
    );
    const { problems, unledgered } = await settleAndSweep(open, runs, context);
    const left = ledger.open();
    const removed = ledger.removeIfSettled();
    // Each order still open once, with why where settling said: a problem names its order first.
    const stillOpen = left.map((entry) => {
      const named = redact(describeEntry(entry), io.secrets);
      const at = problems.findIndex((problem) => problem.startsWith(`${named}: `));
      return at === -1 ? named : (problems.splice(at, 1)[0] as string);
    });
    for (const problem of problems) say(`  ${problem}`);
    for (const line of stillOpen) say(`  still open: ${line}`);
    const retried = retriesText(tally.summary());
    if (retried) say(retried);
    // Of the orders the sweep found, those it also settled (the others are still open, and listed).
    const before = new Set(open.map((entry) => entry.key));
    const found = unledgered - left.filter((entry) => !before.has(entry.key)).length;
    say(
      `Cleanup: ${open.length + unledgered - left.length} orders settled${found > 0 ? ` (${found} of them found by the reference of their run, unknown to the ledger)` : ''}, ${left.length} still open${removed ? '; the ledger is empty and removed' : ` in ${ledger.path} (run it again later)`}.`,
    );
    return left.length === 0 ? EXIT_CODES.passed : EXIT_CODES.failed;
  } finally {
    await Promise.all([...clients.values()].map((client) => client.close()));
  }
}
