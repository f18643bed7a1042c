import type { HttpMethod } from '../operations.js';
import type { ApiVersion } from '../vendor.js';
import type { FieldIssue } from './issues.js';
import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

/** Issues a message names at most. */
const SHOWN_ISSUES = 5;

/** A 2xx answer arrived whose body is not JSON or does not match the version's schema. */
export class ResponseValidationError extends PrintOrderError {
  override readonly name = 'ResponseValidationError';
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number;
  readonly apiVersion: ApiVersion;
  /** Empty when the body was not JSON at all. */
  readonly issues: readonly FieldIssue[];

  constructor(args: {
    method: HttpMethod;
    path: string;
    status: number;
    apiVersion: ApiVersion;
    issues: readonly FieldIssue[];
    notJson?: boolean;
  }) {
    // A list whose every order breaks the same way names the first few: `issues` holds them all.
    const shown = args.issues
      .slice(0, SHOWN_ISSUES)
      .map((issue) => `${issue.path || '(body)'} ${issue.message}`);
    const more = args.issues.length - shown.length;
    const what = args.notJson
      ? 'is not valid JSON'
      : `does not match the ${args.apiVersion} schema: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
    super(ERROR_CODES.responseValidation, `Response ${args.status} of ${args.method} ${args.path} ${what}`);
    this.method = args.method;
    this.path = args.path;
    this.status = args.status;
    this.apiVersion = args.apiVersion;
    this.issues = args.issues;
  }
}

export const isResponseValidationError = guardFor<ResponseValidationError>(ERROR_CODES.responseValidation);
