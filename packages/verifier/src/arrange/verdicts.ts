import {
  type HttpError,
  isHttpError,
  isResponseValidationError,
  isTransportError,
} from '@print-contracts/client';
import { ArrangeError, isArrangeError } from '../errors/arrange-error.js';

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
export const notHere = (reason: string) => new ArrangeError('not-verifiable', reason);
/** The target refused the request; 429 and 5xx (after the client's retries) say it is busy. */
export const isRefusal = (error: unknown): error is HttpError =>
  isHttpError(error) && error.status < 500 && error.status !== 429;

/**
 * An error met while arranging, as a verdict: no answer or a busy target is an unavailable target,
 * a schema-breaking answer a broken contract, a refusal a state out of reach.
 */
export function toArrangeError(error: unknown): ArrangeError {
  if (isArrangeError(error)) return error;
  const message = messageOf(error);
  if (isResponseValidationError(error)) {
    return new ArrangeError('failed', `the target's answer breaks the contract: ${message}`, {
      cause: error,
    });
  }
  const down = isTransportError(error) || (isHttpError(error) && !isRefusal(error));
  return new ArrangeError(down ? 'target-unavailable' : 'not-verifiable', message, { cause: error });
}
