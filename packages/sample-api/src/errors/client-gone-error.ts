import { hasErrorCode } from '@print-contracts/client';
import { SAMPLE_API_ERROR_CODES, SampleApiError } from './sample-api-error.js';

/** The client closed the connection while sending its body: there is nobody left to answer. */
export class ClientGoneError extends SampleApiError {
  override readonly name = 'ClientGoneError';

  constructor() {
    super(SAMPLE_API_ERROR_CODES.clientGone, 'The client closed the connection while sending its body');
  }
}

export const isClientGoneError = (error: unknown): error is ClientGoneError =>
  hasErrorCode(error, SAMPLE_API_ERROR_CODES.clientGone);
