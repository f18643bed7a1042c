import { runStubCli } from './run-stub-cli.js';

// Thin entry point: everything lives in runStubCli, which tests call directly; it stops on the
// first SIGINT, SIGTERM or SIGHUP. Later ones (pnpm forwards the signal its process group got)
// are ignored here to the end, so none can kill the process while it exits; it always ends
// through process.exit.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => {});
// A reader that has gone (its parent killed, `| head`) is no reason to fail while stopping.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}
process.exit(await runStubCli(process.argv.slice(2)));
