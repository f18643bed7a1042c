export {
  type Alteration,
  type AlteringProxy,
  editJson,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
} from './altering-proxy.js';
export { captureIo } from './capture-io.js';
export {
  cliEnv,
  descendants,
  findByCommand,
  killLeftovers,
  living,
  portClosed,
  REPO_ROOT,
  type Started,
  type Stopped,
  start,
  stopWith,
  waitUntilGone,
} from './processes.js';
export { startStubBroker } from './stub-broker.js';
export { closedPortUrl, startSilentBroker } from './unreachable.js';
export { workspace } from './workspace.js';
