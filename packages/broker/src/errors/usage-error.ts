import {
  BROKER_COMMAND_ERROR_CODES,
  BrokerCommandError,
  hasBrokerCommandCode,
} from './broker-command-error.js';

/** A flag, a flag's value or the broker URL makes the command unusable as given. */
export class UsageError extends BrokerCommandError {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super(BROKER_COMMAND_ERROR_CODES.usage, message);
  }
}

export const isUsageError = (error: unknown): error is UsageError =>
  hasBrokerCommandCode(error, BROKER_COMMAND_ERROR_CODES.usage);
