import { SIGNAL_EXIT_CODES, type StopSignal } from './exit-codes.js';
import { runVerify } from './run-verify.js';

// `pnpm verify`: a thin shell over runVerify. The first SIGINT or SIGTERM (Ctrl-C, a cancelled
// CI job) stops the replay, tears down what the run created, writes the ledger and the partial
// reports, and ends with 130 or 143; a second one ends the process at once, leaving the ledger
// for `pnpm verify --cleanup`. Pact's verifier process exits with its parent (IPC disconnect).
const stop = new AbortController();
for (const signal of Object.keys(SIGNAL_EXIT_CODES) as StopSignal[]) {
  process.on(signal, () => {
    const first = stop.signal.reason as StopSignal | undefined;
    if (first) process.exit(SIGNAL_EXIT_CODES[first]);
    process.stderr.write(
      `\n${signal}: stopping; tearing down the orders this run created (again to quit now)…\n`,
    );
    stop.abort(signal);
  });
}

/**
 * A console stream that stops writing once its reader has gone (`pnpm verify | head`):
 * the run must still finish and tear down what it created.
 */
function sink(stream: NodeJS.WriteStream) {
  let open = true;
  stream.on('error', () => {
    open = false;
  });
  return { write: (text: string) => open && stream.write(text) };
}

process.exitCode = await runVerify(process.argv.slice(2), {
  stdout: sink(process.stdout),
  stderr: sink(process.stderr),
  env: process.env,
  cwd: process.cwd(),
  signal: stop.signal,
});
