import { CodedError, hasErrorCode } from '@print-contracts/client';

/** Stable codes, one per error class, so callers can branch without `instanceof`. */
export const ERROR_CODES = {
  pactOutput: 'ERR_CONTRACTS_PACT_OUTPUT',
  stubServer: 'ERR_CONTRACTS_STUB_SERVER',
} as const;

export type ConsumerContractsErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Base of every error the consumer-contracts package throws. */
export class ConsumerContractsError extends CodedError<ConsumerContractsErrorCode> {
  override readonly name: string = 'ConsumerContractsError';
}

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

/** The Pact stub server could not serve the contracts: a missing pact file or a failed start. */
export class StubServerError extends ConsumerContractsError {
  override readonly name = 'StubServerError';

  constructor(message: string, options?: ErrorOptions) {
    super(ERROR_CODES.stubServer, message, options);
  }
}

export const isPactOutputError = (error: unknown): error is PactOutputError =>
  hasErrorCode(error, ERROR_CODES.pactOutput);

export const isStubServerError = (error: unknown): error is StubServerError =>
  hasErrorCode(error, ERROR_CODES.stubServer);
