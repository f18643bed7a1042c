import { hasErrorCode } from '@print-contracts/client';
import { OPENAPI_ERROR_CODES, OpenApiError } from './openapi-error.js';

/** The git revision to compare with is unknown, or git could not read the documents there. */
export class GitRevisionError extends OpenApiError {
  override readonly name = 'GitRevisionError';
  /** The revision as the user gave it. */
  readonly revision: string;

  constructor(revision: string, message: string, options?: ErrorOptions) {
    super(OPENAPI_ERROR_CODES.gitRevision, message, options);
    this.revision = revision;
  }
}

export const isGitRevisionError = (error: unknown): error is GitRevisionError =>
  hasErrorCode<GitRevisionError>(error, OPENAPI_ERROR_CODES.gitRevision);
