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

export const hasCode = <T>(error: unknown, code: ConsumerContractsErrorCode): error is T =>
  hasErrorCode<T>(error, code);
