import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** The target's answer began (status and headers arrived) but its body did not arrive whole. */
export class IncompleteBodyError extends VerifierError {
  override readonly name = 'IncompleteBodyError';

  constructor(cause: unknown) {
    super(VERIFIER_ERROR_CODES.incompleteBody, 'the answer body did not arrive whole', { cause });
  }
}

export const isIncompleteBodyError = (error: unknown): error is IncompleteBodyError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.incompleteBody);
