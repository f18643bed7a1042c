import { runOpenApiCli } from './run-cli.js';

// Thin entry point: everything lives in runOpenApiCli, which tests call directly.
process.exitCode = await runOpenApiCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
