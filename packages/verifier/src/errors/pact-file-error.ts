import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** A pact file is missing, unreadable, not JSON, or not a pact this kit can replay. */
export class PactFileError extends VerifierError {
  override readonly name = 'PactFileError';
  /** The file as the user named it (or the broker URL it came from). */
  readonly file: string;

  constructor(file: string, reason: string) {
    super(VERIFIER_ERROR_CODES.pactFile, `${file}: ${reason}`);
    this.file = file;
  }
}

export const isPactFileError = (error: unknown): error is PactFileError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.pactFile);
