import { hasVerifierCode, VERIFIER_ERROR_CODES, VerifierError } from './verifier-error.js';

/** A pact names a provider state the verifier has no arranger for. */
export class UnknownStateError extends VerifierError {
  override readonly name = 'UnknownStateError';
  readonly state: string;
  readonly file: string;

  constructor(file: string, state: string, description: string) {
    super(
      VERIFIER_ERROR_CODES.unknownState,
      `${file}: unknown provider state "${state}" (interaction "${description}"); the verifier arranges only the states of @print-contracts/consumer-contracts`,
    );
    this.state = state;
    this.file = file;
  }
}

export const isUnknownStateError = (error: unknown): error is UnknownStateError =>
  hasVerifierCode(error, VERIFIER_ERROR_CODES.unknownState);
