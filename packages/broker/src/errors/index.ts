export {
  BROKER_COMMAND_ERROR_CODES,
  BrokerCommandError,
  type BrokerCommandErrorCode,
  isBrokerCommandError,
} from './broker-command-error.js';
export { BrokerRequestError, isBrokerRequestError } from './broker-request-error.js';
export { isUsageError, UsageError } from './usage-error.js';
