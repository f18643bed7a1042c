import type { NotVerifiableCode } from '../plan/not-verifiable.js';
import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

export type ArrangeVerdict = 'not-verifiable' | 'target-unavailable' | 'failed' | 'not-run';

/**
 * A provider state could not be arranged: a precondition does not hold, the target stopped answering,
 * or it broke the contract. It becomes the verdict of the interactions relying on it, never ends the run.
 */
export class ArrangeError extends VerifierError {
  override readonly name = 'ArrangeError';
  readonly verdict: ArrangeVerdict;
  /** With `not-verifiable`: the target property of the closed list that made it so. */
  readonly notVerifiable: NotVerifiableCode | undefined;

  constructor(
    verdict: ArrangeVerdict,
    message: string,
    options?: ErrorOptions & { readonly notVerifiable?: NotVerifiableCode },
  ) {
    super(VERIFIER_ERROR_CODES.arrange, message, options);
    this.verdict = verdict;
    this.notVerifiable = options?.notVerifiable;
  }
}

export const isArrangeError = (error: unknown): error is ArrangeError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.arrange);
