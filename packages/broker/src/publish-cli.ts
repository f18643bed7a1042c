import { earlyStop } from '@print-contracts/client/stop';

// `pnpm contracts:publish`: a thin shell over runPublishContracts; the stop signals and the parent
// are taken before the command loads, so a stop meanwhile ends it (130 or 143) before the Pact CLI starts.
const stop = earlyStop();
const { runAsCommandLine } = await import('./broker-command.js');
const { runPublishContracts } = await import('./publish.js');
await runAsCommandLine(runPublishContracts, stop);
