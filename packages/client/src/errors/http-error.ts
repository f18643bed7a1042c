import type { HttpMethod } from '../operations.js';
import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

export interface HttpErrorDetails {
  status: number;
  method: HttpMethod;
  /** Path and query below the origin, e.g. `/api/orders/42`. */
  path: string;
  /** The vendor's message, when its body had one. */
  vendorMessage: string | undefined;
  /** The parsed JSON body, or the text when it was not JSON. */
  body: unknown;
  /** Seconds the server asked to wait (429, 503), when it said. */
  retryAfterSeconds: number | undefined;
}

/** The server answered with a status outside 2xx. */
export class HttpError extends PrintOrderError {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly method: HttpMethod;
  readonly path: string;
  readonly vendorMessage: string | undefined;
  readonly body: unknown;
  readonly retryAfterSeconds: number | undefined;

  constructor(details: HttpErrorDetails) {
    const reason = details.vendorMessage ? `: ${details.vendorMessage}` : '';
    super(
      ERROR_CODES.http,
      `Request failed with status ${details.status}: ${details.method} ${details.path}${reason}`,
    );
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.vendorMessage = details.vendorMessage;
    this.body = details.body;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

export const isHttpError = guardFor<HttpError>(ERROR_CODES.http);
