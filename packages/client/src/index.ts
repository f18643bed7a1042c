export { argsProblem, usageLine } from './cli-words.js';
export {
  type CallOptions,
  createOrdersClient,
  OrdersClient,
  type SendInput,
  type WaitOptions,
} from './client.js';
// The contract vocabulary the suite, the simulator and the verifier share: no Pact runtime.
export { canonicalJson, sortKeys } from './contract/canonical-json.js';
export { CONSUMER_NAME, pactFileName, providerName } from './contract/participants.js';
export { PLACEHOLDER_CREDENTIALS, UNKNOWN_ORDER_ID, WRONG_SECRET } from './contract/placeholders.js';
export {
  findProviderState,
  PROVIDER_STATES,
  type ProviderStateDefinition,
  type ProviderStateName,
} from './contract/provider-states.js';
export { parseStateChange, type StateChangeRequest } from './contract/state-change.js';
export * from './errors/index.js';
export {
  API_BASE_PATH,
  DEFAULT_BASE_URL,
  expandPath,
  fillPath,
  type HttpMethod,
  ID_PLACEHOLDER,
  OPERATION_NAMES,
  type OperationDefinition,
  type OperationName,
  type Operations,
  operations,
  pathPattern,
  queryKeys,
  type RequestBody,
  type ResponseBody,
} from './operations.js';
export { type OrdersClientOptions, type VersionHeader, withoutUserInfo } from './options.js';
export { REDACTED, redact, redactBuffer, redactValue, secretForms } from './redact.js';
export {
  type AttemptResult,
  parseRetryAfter,
  type RetryEvent,
  type RetryObserver,
  type RetryPolicy,
  UNPROCESSED_STATUSES,
  withRetries,
} from './retry.js';
export { bodyText, vendorMessageOf } from './schemas/error-body.js';
// Every zod schema exported here names a component of the OpenAPI documents (@print-contracts/openapi).
export * from './schemas/order.js';
export * from './schemas/order-request.js';
export {
  describeIncompleteBody,
  describeTransportFailure,
  notConnected,
  untrusted,
} from './transport-failures.js';
export {
  STOP_SIGNALS,
  type StopReason,
  type StopSources,
  type StopWatch,
  untilStopped,
} from './until-stopped.js';
export * from './vendor.js';
export {
  documentedBody,
  VENDOR_EXAMPLES,
  type VendorExample,
  type VendorExampleName,
} from './vendor-examples.js';
