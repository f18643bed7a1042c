import { CodedError, hasErrorCode, hasOneOfCodes } from '@print-contracts/client';

/** Stable codes, one per error class, so callers branch without `instanceof`. */
export const BROKER_COMMAND_ERROR_CODES = {
  usage: 'ERR_BROKER_USAGE',
  request: 'ERR_BROKER_REQUEST',
} as const;

export type BrokerCommandErrorCode =
  (typeof BROKER_COMMAND_ERROR_CODES)[keyof typeof BROKER_COMMAND_ERROR_CODES];

/** Base of the broker package's own errors: a one-line message without credentials. */
export class BrokerCommandError extends CodedError<BrokerCommandErrorCode> {
  override readonly name: string = 'BrokerCommandError';
}

/** True for any of the broker package's own errors, also from another realm or copy of the package. */
export const isBrokerCommandError = (error: unknown): error is BrokerCommandError =>
  hasOneOfCodes(error, BROKER_COMMAND_ERROR_CODES);

export const hasBrokerCommandCode = <T>(error: unknown, code: BrokerCommandErrorCode): error is T =>
  hasErrorCode<T>(error, code);
