import { CodedError, hasErrorCode, hasOneOfCodes } from '@print-contracts/client';

/** Stable codes, one per error class, so callers branch without `instanceof`. */
export const VERIFIER_ERROR_CODES = {
  usage: 'ERR_VERIFY_USAGE',
  pactFile: 'ERR_VERIFY_PACT_FILE',
  unknownState: 'ERR_VERIFY_UNKNOWN_STATE',
  target: 'ERR_VERIFY_TARGET',
  broker: 'ERR_VERIFY_BROKER',
  replay: 'ERR_VERIFY_REPLAY',
  arrange: 'ERR_VERIFY_ARRANGE',
} as const;

export type VerifierErrorCode = (typeof VERIFIER_ERROR_CODES)[keyof typeof VERIFIER_ERROR_CODES];

/**
 * Base of the verifier's own errors: one line, no credentials. Those reaching the command mean
 * exit 2; `ArrangeError` never leaves its stage.
 */
export class VerifierError extends CodedError<VerifierErrorCode> {
  override readonly name: string = 'VerifierError';
}

/** True for any of the verifier's own errors, also from another realm or copy of the package. */
export const isVerifierError = (error: unknown): error is VerifierError =>
  hasOneOfCodes(error, VERIFIER_ERROR_CODES);

export const hasVerifierCode = <T>(error: unknown, code: VerifierErrorCode): error is T =>
  hasErrorCode<T>(error, code);
