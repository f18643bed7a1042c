import { untilStopped } from '@print-contracts/client';
import type { BrokerIo } from './broker-command.js';

/**
 * Runs a broker command as this process's command line. The kit's one stop watch (SIGINT,
 * SIGTERM, SIGHUP, or the parent gone) aborts its signal, so the command stops the Pact CLI
 * it started and exits 130 (SIGINT) or 143 instead of leaving it running.
 */
export async function runAsCommandLine(
  command: (argv: readonly string[], io: BrokerIo) => Promise<number>,
): Promise<void> {
  const stop = new AbortController();
  void untilStopped().stopped.then((reason) => stop.abort(reason));
  process.exitCode = await command(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
    signal: stop.signal,
  });
}
