import { runPublishContracts } from './publish/run-publish.js';

// `pnpm contracts:publish`: a thin shell over runPublishContracts.
process.exitCode = await runPublishContracts(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
