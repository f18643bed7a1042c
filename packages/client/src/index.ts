export { argsProblem, usageLine } from './cli-words.js';
export * from './client.js';
// The contract vocabulary the suite, the simulator and the verifier share: no Pact runtime.
export * from './contract/canonical-json.js';
export * from './contract/participants.js';
export * from './contract/placeholders.js';
export * from './contract/provider-states.js';
export * from './contract/state-change.js';
export * from './errors/index.js';
export * from './operations.js';
export { type OrdersClientOptions, type VersionHeader, withoutUserInfo } from './options.js';
export * from './redact.js';
export {
  type AttemptResult,
  parseRetryAfter,
  type RetryEvent,
  type RetryObserver,
  type RetryPolicy,
  UNPROCESSED_STATUSES,
  withRetries,
} from './retry.js';
export * from './schemas/error-body.js';
// Every zod schema exported here names a component of the OpenAPI documents (@print-contracts/openapi).
export * from './schemas/order.js';
export * from './schemas/order-request.js';
export {
  describeIncompleteBody,
  describeTransportFailure,
  notConnected,
  untrusted,
} from './transport-failures.js';
export * from './until-stopped.js';
export * from './vendor.js';
export * from './vendor-examples.js';
