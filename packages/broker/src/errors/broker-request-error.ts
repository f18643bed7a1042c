import {
  BROKER_COMMAND_ERROR_CODES,
  BrokerCommandError,
  hasBrokerCommandCode,
} from './broker-command-error.js';

/** The Pact Broker could not be reached, refused the credentials, or answered something unexpected. */
export class BrokerRequestError extends BrokerCommandError {
  override readonly name = 'BrokerRequestError';

  constructor(message: string, options?: ErrorOptions) {
    super(BROKER_COMMAND_ERROR_CODES.request, message, options);
  }
}

export const isBrokerRequestError = (error: unknown): error is BrokerRequestError =>
  hasBrokerCommandCode(error, BROKER_COMMAND_ERROR_CODES.request);
