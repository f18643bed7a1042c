import { earlyStop, untilStopped } from '@print-contracts/client/stop';

// Thin entry point: everything lives in runOpenApiCli, which tests call directly. A stop
// (SIGINT, SIGTERM, SIGHUP, or its parent gone) ends a rendering with 130 or 143, its Redocly
// processes and scratch folder with it.
const watch = untilStopped(earlyStop());
const stop = new AbortController();
void watch.stopped.then((reason) => stop.abort(reason));
const { runOpenApiCli } = await import('./run-cli.js');
process.exitCode = await runOpenApiCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  signal: stop.signal,
});
watch.dispose();
