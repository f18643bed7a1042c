export {
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
