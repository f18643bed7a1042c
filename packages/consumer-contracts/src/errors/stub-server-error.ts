import { ConsumerContractsError, ERROR_CODES, hasCode } from './consumer-contracts-error.js';

/** The Pact stub server could not serve the contracts: a missing pact file or a failed start. */
export class StubServerError extends ConsumerContractsError {
  override readonly name = 'StubServerError';

  constructor(message: string) {
    super(ERROR_CODES.stubServer, message);
  }
}

export const isStubServerError = (error: unknown): error is StubServerError =>
  hasCode(error, ERROR_CODES.stubServer);
