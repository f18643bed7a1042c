import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

/** An asynchronously created order did not become readable within the wait's bound. */
export class OrderWaitTimeoutError extends PrintOrderError {
  override readonly name = 'OrderWaitTimeoutError';
  readonly uuid: string;
  readonly waitedMs: number;
  /** The vendor's last message for the order, e.g. that its creation failed. */
  readonly lastMessage: string | undefined;
  /** The last read was throttled (a 429, or a 503 with `Retry-After`): the order was not shown missing. */
  readonly throttled: boolean;

  constructor(uuid: string, waitedMs: number, lastMessage: string | undefined, throttled = false) {
    const last = throttled
      ? ' (its reads were throttled)'
      : lastMessage
        ? ` (last answer: ${lastMessage})`
        : '';
    super(ERROR_CODES.orderWaitTimeout, `Order ${uuid} was not readable after ${waitedMs} ms${last}`);
    this.uuid = uuid;
    this.waitedMs = waitedMs;
    this.lastMessage = lastMessage;
    this.throttled = throttled;
  }
}

export const isOrderWaitTimeoutError = guardFor<OrderWaitTimeoutError>(ERROR_CODES.orderWaitTimeout);
