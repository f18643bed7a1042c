export {
  type Alteration,
  type AlteringProxy,
  editJson,
  type LostAnswer,
  type ProxiedAnswer,
  type ProxiedRequest,
  startAlteringProxy,
} from './altering-proxy.js';
export { captureIo } from './capture-io.js';
export { closedPortUrl, portClosed, startSilentBroker } from './loopback.js';
export {
  cliEnv,
  descendants,
  findByCommand,
  inGroup,
  killLeftovers,
  living,
  REPO_ROOT,
  type Started,
  type Stopped,
  signalWhileLoading,
  start,
  stopWith,
  waitUntilGone,
} from './processes.js';
export { startStubBroker } from './stub-broker.js';
export { workspace } from './workspace.js';
