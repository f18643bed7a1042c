export { BROKER_EXIT_CODES, type BrokerIo } from './broker-command.js';
export { DEFAULT_BROKER_TIMEOUT_SECONDS } from './broker-options.js';
export { CAN_I_DEPLOY_USAGE, parseCanIDeployArgs, runCanIDeploy } from './can-i-deploy.js';
export * from './errors/index.js';
export { type PublishOptions, parsePublishArgs, publishCommand, runPublishContracts } from './publish.js';
