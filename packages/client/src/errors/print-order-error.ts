import { CodedError, hasErrorCode, hasOneOfCodes } from './coded-error.js';

/** Stable codes, one per error class, so callers can branch without `instanceof`. */
export const ERROR_CODES = {
  http: 'ERR_PRINT_HTTP',
  transport: 'ERR_PRINT_TRANSPORT',
  requestValidation: 'ERR_PRINT_REQUEST_VALIDATION',
  responseValidation: 'ERR_PRINT_RESPONSE_VALIDATION',
  orderWaitTimeout: 'ERR_PRINT_ORDER_WAIT_TIMEOUT',
  orderCreationFailed: 'ERR_PRINT_ORDER_CREATION_FAILED',
  configuration: 'ERR_PRINT_CONFIGURATION',
} as const;

export type PrintOrderErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Base of every error the client throws. None of them ever holds a credential. */
export class PrintOrderError extends CodedError<PrintOrderErrorCode> {
  override readonly name: string = 'PrintOrderError';
}

/** True for any of the client's errors, also one thrown in another realm or copy of the package. */
export const isPrintOrderError = (error: unknown): error is PrintOrderError =>
  hasOneOfCodes(error, ERROR_CODES);

/** The `is…Error` guard of one code: it works across realms, as `instanceof` does not. */
export function guardFor<T>(code: PrintOrderErrorCode) {
  return (error: unknown): error is T => hasErrorCode<T>(error, code);
}
