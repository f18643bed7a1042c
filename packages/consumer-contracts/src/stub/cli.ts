import { runStubCli } from './run-stub-cli.js';

// Thin entry point: everything lives in runStubCli, which tests call directly.
process.exitCode = await runStubCli(process.argv.slice(2));
