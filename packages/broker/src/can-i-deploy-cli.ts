import { runAsCommandLine } from './broker-command.js';
import { runCanIDeploy } from './can-i-deploy.js';

// `pnpm can-i-deploy`: a thin shell over runCanIDeploy.
await runAsCommandLine(runCanIDeploy);
