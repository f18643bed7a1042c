import { runPublishContracts } from './publish/run-publish.js';
import { stopOnSignals } from './publish/stop-on-signals.js';

// `pnpm contracts:publish`: a thin shell over runPublishContracts.
process.exitCode = await runPublishContracts(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: stopOnSignals(),
});
