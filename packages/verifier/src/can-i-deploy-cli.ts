import { runCanIDeploy } from './publish/run-can-i-deploy.js';
import { stopOnSignals } from './publish/stop-on-signals.js';

// `pnpm can-i-deploy`: a thin shell over runCanIDeploy.
process.exitCode = await runCanIDeploy(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  signal: stopOnSignals(),
});
