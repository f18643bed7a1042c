import type { HttpMethod } from '../operations.js';
import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

/** What went wrong below HTTP. */
export type TransportFailure = 'timeout' | 'refused' | 'reset' | 'dns' | 'aborted' | 'network';

const DESCRIPTIONS: Record<TransportFailure, string> = {
  timeout: 'timed out',
  refused: 'connection refused',
  reset: 'connection reset or closed before the answer was complete',
  dns: 'host name not found',
  aborted: 'aborted by the caller',
  network: 'network failure',
};

/** No complete HTTP answer arrived. */
export class TransportError extends PrintOrderError {
  override readonly name = 'TransportError';
  readonly failure: TransportFailure;
  readonly method: HttpMethod;
  readonly path: string;

  constructor(failure: TransportFailure, method: HttpMethod, path: string, options?: ErrorOptions) {
    super(ERROR_CODES.transport, `Request failed (${DESCRIPTIONS[failure]}): ${method} ${path}`, options);
    this.failure = failure;
    this.method = method;
    this.path = path;
  }
}

export const isTransportError = guardFor<TransportError>(ERROR_CODES.transport);
