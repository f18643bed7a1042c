// The consumer suite is run, not imported: its public surface is the stub of the committed
// contracts (`pnpm stub`, `print-contracts-stub`) and the errors it throws.

export * from './errors/index.js';
export { CONTRACTS_DIR } from './pact-files.js';
export { runStubCli, STUB_EXIT, type StubCliIo } from './stub/run-stub-cli.js';
export {
  INTERACTION_HEADER,
  NO_INTERACTION_STATUS,
  PROVIDER_HEADER,
  STUB_STATE_HEADER,
} from './stub/stub-front.js';
export {
  defaultStates,
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
