import {
  type HttpError,
  isHttpError,
  isResponseValidationError,
  isTransportError,
  withoutVendorAnswer,
} from '@print-contracts/client';
import { isRedirect } from '@print-contracts/client/kit';
import { ArrangeError, isArrangeError } from '../errors/index.js';
import { type NotVerifiableCode, notVerifiableReason } from '../plan/not-verifiable.js';

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
/** Not verifiable here, for a target property of the closed list only, with what showed it. */
export const notHere = (code: NotVerifiableCode, seen?: string) =>
  new ArrangeError('not-verifiable', notVerifiableReason(code, seen), { notVerifiable: code });
/** The target contradicted what the vendor documents while a state was arranged: the evidence. */
export const contradicted = (evidence: string) =>
  new ArrangeError('failed', `the target contradicts what the vendor documents: ${evidence}`);
/** The target refused the request: a 4xx but a 429 (redirects too, which the kit follows none of). */
export const isRefusal = (error: unknown): error is HttpError =>
  isHttpError(error) && error.status < 500 && error.status !== 429;
/** No answer of the vendor's after the retries: it is busy (429, 503), or a gateway answered for it. */
export const isBusy = (error: unknown): error is HttpError =>
  isHttpError(error) && withoutVendorAnswer(error.status);

/**
 * An error met while arranging, as a verdict: no answer or a busy target is an unavailable target;
 * a schema-breaking answer, a refusal of a documented request, or the vendor's own server error
 * (a 500, which the vendor documents only for a cancel refused) is the target's contradiction. Any
 * other error is the verifier's own: nothing is judged, and the run ends broken once torn down.
 */
export function toArrangeError(error: unknown): ArrangeError {
  if (isArrangeError(error)) return error;
  const message = messageOf(error);
  if (isResponseValidationError(error)) {
    return new ArrangeError('failed', `the target's answer breaks the contract: ${message}`, {
      cause: error,
    });
  }
  if (isTransportError(error) || isBusy(error)) {
    return new ArrangeError('target-unavailable', message, { cause: error });
  }
  if (!isHttpError(error)) {
    return new ArrangeError('not-run', `not judged: the verifier broke while arranging: ${message}`, {
      cause: error,
      fault: error,
    });
  }
  const what =
    error.status >= 500
      ? `the target answered ${error.status} to a request the vendor documents`
      : isRedirect(error.status)
        ? 'the target redirected a request the vendor documents'
        : 'the target refused a request the vendor documents';
  return new ArrangeError('failed', `${what}: ${message}`, { cause: error });
}
