import { TargetClients } from '../arrange/target-clients.js';
import { Ledger } from '../ledger/ledger.js';
import { settleOrders } from '../ledger/settle-orders.js';
import { mainCredentials, otherCredentials } from '../options/credentials.js';
import type { VerifyOptions } from '../options/verify-options.js';
import { ConsoleReporter } from '../report/console-reporter.js';
import type { Credentials } from '../target/target.js';
import { manySignal } from './many-signal.js';
import type { VerifyIo } from './verify-io.js';

/**
 * `--cleanup`: settles every order the ledger still holds open (an interrupted or crashed
 * run's), on whatever target each was created, with the credentials from the environment or
 * the flags. Exit 0 when the ledger is empty afterwards, 1 when orders remain open.
 */
export async function runCleanup(options: VerifyOptions, io: VerifyIo): Promise<number> {
  const ledger = Ledger.open(options.ledgerPath, 'cleanup');
  const open = ledger.open();
  const secrets: string[] = [];
  const reporter = () => new ConsoleReporter(io.stdout, { quiet: false, secrets });
  if (open.length === 0) {
    ledger.removeIfSettled();
    reporter().say(`The ledger ${options.ledgerPath} holds no open orders: nothing to clean up.`);
    return 0;
  }
  const needs = (role: 'main' | 'other') =>
    open.some((entry) => !entry.embedded && entry.uuid && entry.credential === role);
  const main = needs('main') ? mainCredentials(options.credentialFlags, io.env, io.cwd) : undefined;
  const other = needs('other') ? otherCredentials(options.credentialFlags, io.env, io.cwd) : undefined;
  secrets.push(...[main?.secret, other?.secret].filter((value): value is string => Boolean(value)));
  const say = reporter();
  say.say(`Cleanup: ${open.length} open orders in ${options.ledgerPath}`);

  const clients = new Map<string, TargetClients>();
  const clientsFor = (entry: (typeof open)[number]) => {
    if (!main) return undefined;
    const key = `${entry.target}|${entry.controlOrigin ?? ''}`;
    let found = clients.get(key);
    if (!found) {
      const credentials: { main: Credentials; other: Credentials | undefined } = { main, other };
      found = new TargetClients(
        {
          kind: 'url',
          baseUrl: entry.target,
          mode: 'sample',
          controlOrigin: entry.controlOrigin,
          credentials,
        },
        options.requestTimeoutMs,
      );
      clients.set(key, found);
    }
    return found;
  };
  try {
    const outcome = await settleOrders(open, {
      ledger,
      clientsFor,
      runningEmbedded: undefined,
      waitMs: options.creationTimeoutMs,
      pollIntervalMs: options.pollIntervalMs,
      unresolved: 'abandon',
      secrets,
      signal: manySignal(io.signal),
    });
    for (const problem of outcome.problems) say.say(`  ${problem}`);
    const left = ledger.open().length;
    const removed = ledger.removeIfSettled();
    say.say(
      `Cleanup: ${outcome.settled} orders settled, ${left} still open${removed ? '; the ledger is empty and removed' : ` in ${ledger.path}`}.`,
    );
    return left === 0 ? 0 : 1;
  } finally {
    await Promise.all([...clients.values()].map((client) => client.close()));
  }
}
