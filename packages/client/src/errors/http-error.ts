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
  /** Where a redirect (3xx) points, from its `Location`: the client follows no redirect. */
  location?: string | undefined;
}

/** The statuses an HTTP client that follows redirects would follow (RFC 9110 §15.4): the kit follows none. */
export const isRedirect = (status: number): boolean => [301, 302, 303, 307, 308].includes(status);

/** The server answered with a status outside 2xx. */
export class HttpError extends PrintOrderError {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly method: HttpMethod;
  readonly path: string;
  readonly vendorMessage: string | undefined;
  readonly body: unknown;
  readonly retryAfterSeconds: number | undefined;
  readonly location: string | undefined;

  constructor(details: HttpErrorDetails) {
    const reason = details.vendorMessage ? `: ${details.vendorMessage}` : '';
    const redirect = details.location
      ? ` (a redirect to ${details.location}, which the client does not follow)`
      : '';
    super(
      ERROR_CODES.http,
      `Request failed with status ${details.status}: ${details.method} ${details.path}${reason}${redirect}`,
    );
    this.status = details.status;
    this.method = details.method;
    this.path = details.path;
    this.vendorMessage = details.vendorMessage;
    this.body = details.body;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.location = details.location;
  }
}

export const isHttpError = guardFor<HttpError>(ERROR_CODES.http);
