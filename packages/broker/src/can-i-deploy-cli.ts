import { earlyStop } from '@print-contracts/client/stop';

// `pnpm can-i-deploy`: a thin shell over runCanIDeploy; the stop signals and the parent are taken
// before the command loads, so a stop meanwhile ends it (130 or 143) before the Pact CLI starts.
const stop = earlyStop();
const { runAsCommandLine } = await import('./broker-command.js');
const { runCanIDeploy } = await import('./can-i-deploy.js');
await runAsCommandLine(runCanIDeploy, stop);
