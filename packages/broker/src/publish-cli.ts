import { runAsCommandLine } from './broker-command.js';
import { runPublishContracts } from './publish.js';

// `pnpm contracts:publish`: a thin shell over runPublishContracts.
await runAsCommandLine(runPublishContracts);
