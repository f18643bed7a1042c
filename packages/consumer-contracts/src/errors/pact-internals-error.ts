import { ConsumerContractsError, ERROR_CODES, hasCode } from './consumer-contracts-error.js';

/**
 * The installed pact-js no longer exposes what the suite relies on to wait for the mock
 * server's bookkeeping (see `ContractPact`); raised so an upgrade fails loudly instead of
 * silently bringing back the "expected but not received" race.
 */
export class PactInternalsError extends ConsumerContractsError {
  override readonly name = 'PactInternalsError';

  constructor(message: string) {
    super(ERROR_CODES.pactInternals, message);
  }
}

export const isPactInternalsError = (error: unknown): error is PactInternalsError =>
  hasCode(error, ERROR_CODES.pactInternals);
