import { ConsumerContractsError, ERROR_CODES, hasCode } from './consumer-contracts-error.js';

/**
 * The pact files the suite wrote cannot become contracts: unreadable, two interactions with
 * one description, or fragments of one pact that disagree on participants or metadata.
 */
export class PactOutputError extends ConsumerContractsError {
  override readonly name = 'PactOutputError';

  constructor(message: string, options?: ErrorOptions) {
    super(ERROR_CODES.pactOutput, message, options);
  }
}

export const isPactOutputError = (error: unknown): error is PactOutputError =>
  hasCode(error, ERROR_CODES.pactOutput);
