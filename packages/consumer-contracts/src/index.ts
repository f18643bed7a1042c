export { type ContractChange, diffContracts, formatChanges } from './contract-changes.js';
export { ContractPact } from './contract-pact.js';
export { CONTRACTS_DIR } from './contracts-dir.js';
export {
  type CredentialFinding,
  type KnownSecret,
  scanForCredentials,
  secretsFromEnv,
  tokenReason,
} from './credential-scan.js';
export { type RunningProxy, startCredentialStrippingProxy } from './credential-stripping-proxy.js';
export * from './errors/index.js';
export {
  ASSUMED_PREFIX,
  assumed,
  DOCS,
  DOCUMENTED_PREFIX,
  documented,
  SUCCESS_CLASS,
} from './expectations.js';
export { DELIVERY_ADDRESS, INVOICE_ADDRESS } from './fixtures/addresses.js';
export * from './fixtures/examples.js';
export { ORDER_LINE_V1, ORDER_LINES_V2, QUOTE_ORDER_EXAMPLE } from './fixtures/order-lines.js';
export {
  CANCEL_REASON,
  HOME_DELIVERY,
  INVALID_ORDERS,
  NEW_ORDERS,
  ORDER_UPDATES,
  QUOTE_ORDER,
  TEST_ORDERS,
  V1_ONLY_DELIVERY,
} from './fixtures/orders.js';
export * from './fixtures/responses.js';
export {
  bodyContaining,
  clientErrorStatus,
  documentedStatus,
  matching,
  NULL_RULE,
  oneOf,
  oneOfPattern,
  orNull,
  PRESENT_PATTERN,
  patternSource,
  present,
  type RawMatcher,
  type RawRule,
  successStatus,
} from './matchers.js';
export {
  asPact,
  collectPacts,
  normalisePact,
  type PactFile,
  type PactInteraction,
  type PactProviderState,
  type PactRuleList,
  readPact,
  serialisePact,
} from './pact-files.js';
export { type ClientSetup, type CredentialsSent, requestHeaders } from './request-headers.js';
export {
  type InjectedKey,
  type InjectedPath,
  injectedOrderPath,
  orderPath,
} from './request-paths.js';
export { runStubCli, STUB_EXIT, STUB_USAGE, type StubCliIo } from './stub/run-stub-cli.js';
export {
  INTERACTION_HEADER,
  NO_INTERACTION_STATUS,
  PROVIDER_HEADER,
  STUB_STATE_HEADER,
} from './stub/stub-front.js';
export {
  defaultStates,
  NO_STATE_SELECTOR,
  renderStubTable,
  type StubRoute,
  stubRoutes,
} from './stub/stub-guide.js';
export {
  type StubExit,
  type StubServer,
  type StubServerOptions,
  startStubServer,
} from './stub/stub-server.js';
