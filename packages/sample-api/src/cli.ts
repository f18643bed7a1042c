import { earlyStop } from '@print-contracts/client/stop';

// Thin entry point: everything lives in runSampleApiCli, which tests call directly. It takes the
// stop signals and notes its parent before it loads the command (~300 ms on a busy machine): a
// signal meanwhile stops it as soon as it is up, and so does a parent gone meanwhile.
const stop = earlyStop();
const { runSampleApiCli } = await import('./run-cli.js');
process.exit(
  await runSampleApiCli(process.argv.slice(2), {
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    stop,
  }),
);
