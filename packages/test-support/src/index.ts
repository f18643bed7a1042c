export {
  descendants,
  findByCommand,
  killLeftovers,
  living,
  portClosed,
  REPO_ROOT,
  type Started,
  start,
  waitUntilGone,
} from './processes.js';
