/**
 * The contract vocabulary without Pact's runtime: participants, provider states, credential
 * placeholders, the API base path and the pact-file canonical form. The verifier imports this
 * entry (`@print-contracts/consumer-contracts/vocabulary`), so a run does not pay for loading
 * pact-js's consumer DSL.
 */

export { UNKNOWN_ORDER_ID } from './fixtures/examples.js';
export { pactCliBinary } from './pact-cli.js';
export { canonicalJson } from './pact-files.js';
export { CONSUMER_NAME, pactFileName, providerName } from './participants.js';
export { PLACEHOLDER_CREDENTIALS, WRONG_SECRET } from './placeholders.js';
export {
  findProviderState,
  PROVIDER_STATES,
  type ProviderStateDefinition,
  type ProviderStateKey,
  type ProviderStateName,
} from './provider-states.js';
export { API_BASE_PATH } from './request-paths.js';
