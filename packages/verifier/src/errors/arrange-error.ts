import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

export type ArrangeVerdict = 'not-verifiable' | 'target-unavailable' | 'failed';

/**
 * A provider state could not be arranged: a precondition does not hold, the target stopped answering,
 * or it broke the contract. It becomes the verdict of the interactions relying on it, never ends the run.
 */
export class ArrangeError extends VerifierError {
  override readonly name = 'ArrangeError';
  readonly verdict: ArrangeVerdict;

  constructor(verdict: ArrangeVerdict, message: string, options?: ErrorOptions) {
    super(VERIFIER_ERROR_CODES.arrange, message, options);
    this.verdict = verdict;
  }
}

export const isArrangeError = (error: unknown): error is ArrangeError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.arrange);
