import { runAsCommandLine } from './command-line.js';
import { runPublishContracts } from './publish.js';

// `pnpm contracts:publish`: a thin shell over runPublishContracts.
await runAsCommandLine(runPublishContracts);
