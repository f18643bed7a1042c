export { BROKER_EXIT_CODES, type BrokerIo } from './broker-command.js';
export { parseCanIDeployArgs, runCanIDeploy } from './can-i-deploy.js';
export { type PublishOptions, publishCommand, runPublishContracts } from './publish.js';
