import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

export type ArrangeVerdict = 'not-verifiable' | 'target-unavailable' | 'failed' | 'not-run';

/**
 * A provider state could not be arranged: a precondition does not hold, the target stopped answering,
 * or it broke the contract. It becomes the verdict of the interactions relying on it, never ends the run.
 */
export class ArrangeError extends VerifierError {
  override readonly name = 'ArrangeError';
  readonly verdict: ArrangeVerdict;
  /** With `not-verifiable`: the code of the target property (the closed list in `plan/not-verifiable.ts`). */
  readonly notVerifiable: string | undefined;

  constructor(
    verdict: ArrangeVerdict,
    message: string,
    options?: ErrorOptions & { readonly notVerifiable?: string },
  ) {
    super(VERIFIER_ERROR_CODES.arrange, message, options);
    this.verdict = verdict;
    this.notVerifiable = options?.notVerifiable;
  }
}

export const isArrangeError = (error: unknown): error is ArrangeError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.arrange);
