import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** The target could not be reached, or refused the credentials before anything was replayed. */
export class TargetError extends VerifierError {
  override readonly name = 'TargetError';

  constructor(message: string, options?: ErrorOptions) {
    super(VERIFIER_ERROR_CODES.target, message, options);
  }
}

export const isTargetError = (error: unknown): error is TargetError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.target);
