import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** The Pact Broker could not be reached, refused us, or answered something unexpected. */
export class BrokerError extends VerifierError {
  override readonly name = 'BrokerError';

  constructor(message: string, options?: ErrorOptions) {
    super(VERIFIER_ERROR_CODES.broker, message, options);
  }
}

export const isBrokerError = (error: unknown): error is BrokerError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.broker);
