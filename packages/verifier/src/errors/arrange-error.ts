import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** How an interaction that relies on a state that could not be arranged is judged. */
export type ArrangeVerdict = 'not-verifiable' | 'target-unavailable';

/**
 * A provider state could not be arranged on this target: a precondition does not hold here
 * (`not-verifiable`), or the target stopped answering (`target-unavailable`). It becomes the
 * verdict of the interactions that rely on the state; it never ends the run.
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
