import { runSampleApiCli } from './run-cli.js';

// Thin entry point: everything lives in runSampleApiCli, which tests call directly.
process.exitCode = await runSampleApiCli(process.argv.slice(2));
