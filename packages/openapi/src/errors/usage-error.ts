import { hasOpenApiCode, OPENAPI_ERROR_CODES, OpenApiError } from './openapi-error.js';

/** A command, flag or argument the CLI cannot take as given (exit status 2). */
export class UsageError extends OpenApiError {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super(OPENAPI_ERROR_CODES.usage, message);
  }
}

export const isUsageError = (error: unknown): error is UsageError =>
  hasOpenApiCode(error, OPENAPI_ERROR_CODES.usage);
