import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** Pact's verifier could not run (the native core crashed or refused its arguments). */
export class ReplayError extends VerifierError {
  override readonly name = 'ReplayError';

  constructor(message: string, options?: ErrorOptions) {
    super(VERIFIER_ERROR_CODES.replay, message, options);
  }
}

export const isReplayError = (error: unknown): error is ReplayError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.replay);
