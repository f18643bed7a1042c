import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** A flag, a flag's value or a missing credential makes the command unusable as given. */
export class UsageError extends VerifierError {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super(VERIFIER_ERROR_CODES.usage, message);
  }
}

export const isUsageError = (error: unknown): error is UsageError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.usage);
