// `pnpm verify`: a thin shell over runVerify. Pact's worker process starts first, before the
// rest of the verifier loads, so both start-ups overlap.
import { startPactWorker } from './replay/pact-worker-process.js';

const pactWorker = startPactWorker();
const { runVerify } = await import('./run-verify.js');

// The first SIGINT stops the replay and tears down what the run created; a second one ends
// the process at once (the ledger keeps what is still open for `pnpm verify --cleanup`).
const interrupt = new AbortController();
process.on('SIGINT', () => {
  if (interrupt.signal.aborted) process.exit(130);
  process.stderr.write(
    '\nInterrupted: tearing down the orders this run created (Ctrl-C again to quit now)…\n',
  );
  interrupt.abort();
});

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

try {
  process.exitCode = await runVerify(process.argv.slice(2), {
    stdout: sink(process.stdout),
    stderr: sink(process.stderr),
    env: process.env,
    cwd: process.cwd(),
    signal: interrupt.signal,
    pactWorker,
  });
} finally {
  pactWorker.child.kill('SIGKILL');
}
