/** Stable codes, one per error class, so callers can branch without `instanceof`. */
export const ERROR_CODES = {
  pactOutput: 'ERR_CONTRACTS_PACT_OUTPUT',
  pactInternals: 'ERR_CONTRACTS_PACT_INTERNALS',
  stubServer: 'ERR_CONTRACTS_STUB_SERVER',
} as const;

export type ConsumerContractsErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Base of every error the consumer-contracts package throws. */
export class ConsumerContractsError extends Error {
  override readonly name: string = 'ConsumerContractsError';
  readonly code: ConsumerContractsErrorCode;

  constructor(code: ConsumerContractsErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

export const hasCode = <T>(error: unknown, code: ConsumerContractsErrorCode): error is T =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;
