import type { OperationName } from '../operations.js';
import type { ApiVersion } from '../vendor.js';
import type { FieldIssue } from './issues.js';
import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

/** A request was refused before anything was sent; `issues` names each bad field. */
export class RequestValidationError extends PrintOrderError {
  override readonly name = 'RequestValidationError';
  readonly operation: OperationName;
  readonly apiVersion: ApiVersion;
  readonly issues: readonly FieldIssue[];

  constructor(operation: OperationName, apiVersion: ApiVersion, issues: readonly FieldIssue[]) {
    const list = issues.map((issue) => `${issue.path || '(body)'} ${issue.message}`).join('; ');
    super(
      ERROR_CODES.requestValidation,
      `Invalid ${operation} request for ${apiVersion}, nothing was sent: ${list}`,
    );
    this.operation = operation;
    this.apiVersion = apiVersion;
    this.issues = issues;
  }
}

export const isRequestValidationError = guardFor<RequestValidationError>(ERROR_CODES.requestValidation);
