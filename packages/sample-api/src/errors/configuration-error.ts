import { hasErrorCode } from '@print-contracts/client';
import { SAMPLE_API_ERROR_CODES, SampleApiError } from './sample-api-error.js';

/** The options given to the sample API (or its command line) are unusable; the message says why. */
export class SampleApiConfigurationError extends SampleApiError {
  override readonly name = 'SampleApiConfigurationError';

  constructor(message: string) {
    super(SAMPLE_API_ERROR_CODES.configuration, message);
  }
}

export const isSampleApiConfigurationError = (error: unknown): error is SampleApiConfigurationError =>
  hasErrorCode(error, SAMPLE_API_ERROR_CODES.configuration);
