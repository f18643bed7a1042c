export { CONSUMER_NAME, pactFileName, providerName } from './participants.js';
export { PLACEHOLDER_CREDENTIALS, WRONG_SECRET } from './placeholders.js';
export {
  findProviderState,
  PROVIDER_STATES,
  type ProviderStateDefinition,
  type ProviderStateKey,
  type ProviderStateName,
} from './provider-states.js';
