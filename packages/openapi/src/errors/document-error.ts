import { hasErrorCode } from '@print-contracts/client';
import { OPENAPI_ERROR_CODES, OpenApiError } from './openapi-error.js';

/** An OpenAPI document could not be built, read or parsed (names the file or the part). */
export class DocumentError extends OpenApiError {
  override readonly name = 'DocumentError';

  constructor(message: string, options?: ErrorOptions) {
    super(OPENAPI_ERROR_CODES.document, message, options);
  }
}

export const isDocumentError = (error: unknown): error is DocumentError =>
  hasErrorCode<DocumentError>(error, OPENAPI_ERROR_CODES.document);
