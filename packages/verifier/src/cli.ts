import { earlyStop, untilStopped } from '@print-contracts/client/stop';
import { SIGNAL_EXIT_CODES, stopSignalOf } from './exit-codes.js';

// `pnpm verify`: a thin shell over runVerify. The first SIGINT, SIGTERM or SIGHUP (or the
// exit of its parent) stops the replay, tears down what the run created, writes the ledger and
// the partial reports, and ends with 130 (SIGINT) or 143; runVerify says which; one that comes
// while the command loads stops it before anything is created. A signal a second or more later
// ends the process at once, leaving the ledger for `--cleanup`; copies of the first (the
// terminal's and pnpm's) arrive together and do not count. Pact's process exits with its parent (IPC).
const watch = untilStopped(earlyStop());
const stop = new AbortController();
void watch.stopped.then((reason) => {
  stop.abort(reason);
  setTimeout(() => {
    watch.dispose();
    for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(name, () => process.exit(SIGNAL_EXIT_CODES[stopSignalOf(reason)]));
    }
  }, 1_000).unref();
});

/** A console stream that stops writing once its reader has gone (`| head`): the run must still tear down. */
function sink(stream: NodeJS.WriteStream) {
  let open = true;
  stream.on('error', () => {
    open = false;
  });
  return { write: (text: string) => open && stream.write(text), isTTY: stream.isTTY === true };
}

const { runVerify } = await import('./run-verify.js');
process.exitCode = await runVerify(process.argv.slice(2), {
  stdout: sink(process.stdout),
  stderr: sink(process.stderr),
  env: process.env,
  cwd: process.cwd(),
  signal: stop.signal,
});
watch.dispose();
