import { CodedError, hasOneOfCodes } from '@print-contracts/client';

/** Stable codes, one per error class, so callers branch without `instanceof`. */
export const OPENAPI_ERROR_CODES = {
  gitRevision: 'ERR_OPENAPI_GIT_REVISION',
  document: 'ERR_OPENAPI_DOCUMENT',
  tool: 'ERR_OPENAPI_TOOL',
} as const;

export type OpenApiErrorCode = (typeof OPENAPI_ERROR_CODES)[keyof typeof OPENAPI_ERROR_CODES];

/** Base of every error this package raises itself; its message is one line, fit to print as is. */
export class OpenApiError extends CodedError<OpenApiErrorCode> {
  override readonly name: string = 'OpenApiError';
}

/** True for any of this package's errors, also from another realm or copy of the package. */
export const isOpenApiError = (error: unknown): error is OpenApiError =>
  hasOneOfCodes(error, OPENAPI_ERROR_CODES);
