import { runCanIDeploy } from './can-i-deploy.js';
import { runAsCommandLine } from './command-line.js';

// `pnpm can-i-deploy`: a thin shell over runCanIDeploy.
await runAsCommandLine(runCanIDeploy);
