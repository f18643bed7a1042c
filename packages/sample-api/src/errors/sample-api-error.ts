import { CodedError, hasOneOfCodes } from '@print-contracts/client';

/** Stable codes, one per error class, so callers can branch without `instanceof`. */
export const SAMPLE_API_ERROR_CODES = {
  answer: 'ERR_SAMPLE_API_ANSWER',
  configuration: 'ERR_SAMPLE_API_CONFIGURATION',
  clientGone: 'ERR_SAMPLE_API_CLIENT_GONE',
} as const;

export type SampleApiErrorCode = (typeof SAMPLE_API_ERROR_CODES)[keyof typeof SAMPLE_API_ERROR_CODES];

/** Base of every error the sample API throws; `code` stays stable across versions and realms. */
export class SampleApiError extends CodedError<SampleApiErrorCode> {
  override readonly name: string = 'SampleApiError';
}

/** True for any error of the sample API, also one thrown by another copy of the package. */
export const isSampleApiError = (error: unknown): error is SampleApiError =>
  hasOneOfCodes(error, SAMPLE_API_ERROR_CODES);
