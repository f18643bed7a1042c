import type { StopSources } from '@print-contracts/client/kit';

// Thin entry point: everything lives in runSampleApiCli, which tests call directly. Loading it
// takes a while (~300 ms on a busy machine), and a signal meanwhile would kill the process, so
// this file imports nothing before it handles SIGINT, SIGTERM and SIGHUP. The first one, even
// one that comes while the command loads, stops it (as soon as it is up); later ones (pnpm
// forwards the signal its process group got) are ignored here to the end, so none can kill the
// process while it exits; it always ends through process.exit.
let received: NodeJS.Signals | undefined;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    received ??= signal;
  });
}
/** The process's signals, and at once the one that came before the command listened. */
const signals: StopSources['signals'] = {
  on(signal, listener) {
    process.on(signal, listener);
    if (signal === received) listener();
  },
  off: (signal, listener) => process.off(signal, listener),
};
// A reader that has gone (its parent killed, `| head`) is no reason to fail while stopping.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
const { runSampleApiCli } = await import('./run-cli.js');
process.exit(
  await runSampleApiCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stop: { signals },
  }),
);
