export { CodedError, hasErrorCode, hasOneOfCodes } from './coded-error.js';
export { ConfigurationError, isConfigurationError } from './configuration-error.js';
export { HttpError, type HttpErrorDetails, isHttpError } from './http-error.js';
export { type FieldIssue, formatPath, toFieldIssues } from './issues.js';
export { isOrderCreationFailedError, OrderCreationFailedError } from './order-creation-failed-error.js';
export { isOrderWaitTimeoutError, OrderWaitTimeoutError } from './order-wait-timeout-error.js';
export {
  ERROR_CODES,
  isPrintOrderError,
  PrintOrderError,
  type PrintOrderErrorCode,
} from './print-order-error.js';
export { isRequestValidationError, RequestValidationError } from './request-validation-error.js';
export { isResponseValidationError, ResponseValidationError } from './response-validation-error.js';
export { isTransportError, TransportError, type TransportFailure } from './transport-error.js';
