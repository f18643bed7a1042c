/** Stable codes, one per error class, so callers can branch without `instanceof`. */
export const SAMPLE_API_ERROR_CODES = {
  answer: 'ERR_SAMPLE_API_ANSWER',
  configuration: 'ERR_SAMPLE_API_CONFIGURATION',
  clientGone: 'ERR_SAMPLE_API_CLIENT_GONE',
} as const;

export type SampleApiErrorCode = (typeof SAMPLE_API_ERROR_CODES)[keyof typeof SAMPLE_API_ERROR_CODES];

/** Base of every error the sample API throws; `code` stays stable across versions and realms. */
export class SampleApiError extends Error {
  override readonly name: string = 'SampleApiError';
  readonly code: SampleApiErrorCode;

  constructor(code: SampleApiErrorCode, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

export const hasSampleApiCode = <T>(error: unknown, code: SampleApiErrorCode): error is T =>
  typeof error === 'object' && error !== null && (error as { code?: unknown }).code === code;

/** True for any error of the sample API, also one thrown by another copy of the package. */
export const isSampleApiError = (error: unknown): error is SampleApiError =>
  typeof error === 'object' &&
  error !== null &&
  (Object.values(SAMPLE_API_ERROR_CODES) as unknown[]).includes((error as { code?: unknown }).code);
