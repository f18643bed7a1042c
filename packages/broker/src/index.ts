export { BROKER_EXIT_CODES, type BrokerIo } from './broker-command.js';
export { type BrokerAuth, brokerAuth, brokerSecrets, checkBrokerUrl } from './broker-options.js';
export type { BrokerConnection } from './broker-request.js';
export { parseCanIDeployArgs, runCanIDeploy } from './can-i-deploy.js';
export * from './errors/index.js';
export {
  fetchPactsForVerification,
  type PactForVerification,
  type PactsForVerificationQuery,
} from './pacts-for-verification.js';
export { type PublishOptions, publishCommand, runPublishContracts } from './publish.js';
