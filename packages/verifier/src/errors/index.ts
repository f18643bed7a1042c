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

type VerifierErrorCode = (typeof VERIFIER_ERROR_CODES)[keyof typeof VERIFIER_ERROR_CODES];

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

/** A flag, a flag's value or a missing credential makes the command unusable as given. */
export class UsageError extends VerifierError {
  override readonly name = 'UsageError';

  constructor(message: string) {
    super(VERIFIER_ERROR_CODES.usage, message);
  }
}

export const isUsageError = (error: unknown): error is UsageError =>
  hasErrorCode(error, VERIFIER_ERROR_CODES.usage);

/** A pact file is missing, unreadable, not JSON, or not a pact this kit can replay. */
export class PactFileError extends VerifierError {
  override readonly name = 'PactFileError';

  /** `file`: as the user named it, or the broker URL it came from. */
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(VERIFIER_ERROR_CODES.pactFile, `${file}: ${reason}`);
  }
}

/** A pact names a provider state the verifier has no arranger for. */
export class UnknownStateError extends VerifierError {
  override readonly name = 'UnknownStateError';

  constructor(
    readonly file: string,
    readonly state: string,
    description: string,
  ) {
    super(
      VERIFIER_ERROR_CODES.unknownState,
      `${file}: unknown provider state "${state}" (interaction "${description}"); the verifier arranges only the states of @print-contracts/consumer-contracts`,
    );
  }
}

/** The target could not be reached, or refused the credentials before anything was replayed. */
export class TargetError extends VerifierError {
  override readonly name = 'TargetError';

  constructor(message: string, options?: ErrorOptions) {
    super(VERIFIER_ERROR_CODES.target, message, options);
  }
}

/** The Pact Broker could not be reached, refused us, or answered something unexpected. */
export class BrokerError extends VerifierError {
  override readonly name = 'BrokerError';

  constructor(message: string) {
    super(VERIFIER_ERROR_CODES.broker, message);
  }
}

/** Pact's verifier could not run (the native core crashed or refused its arguments). */
export class ReplayError extends VerifierError {
  override readonly name = 'ReplayError';

  constructor(message: string) {
    super(VERIFIER_ERROR_CODES.replay, message);
  }
}

export const isReplayError = (error: unknown): error is ReplayError =>
  hasErrorCode(error, VERIFIER_ERROR_CODES.replay);

export type ArrangeVerdict = 'not-verifiable' | 'target-unavailable' | 'failed' | 'not-run';

/**
 * A provider state could not be arranged: a precondition does not hold, the target stopped answering,
 * or it broke the contract. It becomes the verdict of the interactions relying on it, never ends the run.
 */
export class ArrangeError extends VerifierError {
  override readonly name = 'ArrangeError';
  /** With `not-verifiable`: the code of the target property (the closed list in `plan/not-verifiable.ts`). */
  readonly notVerifiable: string | undefined;
  /** The verifier's own fault (a bug, a ledger it cannot write): the run ends broken once torn down. */
  readonly fault: unknown;

  constructor(
    readonly verdict: ArrangeVerdict,
    message: string,
    options?: ErrorOptions & { readonly notVerifiable?: string; readonly fault?: unknown },
  ) {
    super(VERIFIER_ERROR_CODES.arrange, message, options);
    this.notVerifiable = options?.notVerifiable;
    this.fault = options?.fault;
  }
}

export const isArrangeError = (error: unknown): error is ArrangeError =>
  hasErrorCode(error, VERIFIER_ERROR_CODES.arrange);
