import { earlyStop } from '@print-contracts/client/stop';

// Thin entry point: everything lives in runStubCli, which tests call directly. It takes the stop
// signals and notes its parent before it loads the command (~400 ms on a busy machine): a signal
// meanwhile stops it as soon as it is up, its stub server with it, and so does a parent gone meanwhile.
const stop = earlyStop();
const { runStubCli } = await import('./run-stub-cli.js');
process.exit(
  await runStubCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    stop,
  }),
);
