import { ERROR_CODES, hasCode, PrintOrderError } from './print-order-error.js';

/** The vendor says an asynchronously created order failed; it will never become readable. */
export class OrderCreationFailedError extends PrintOrderError {
  override readonly name = 'OrderCreationFailedError';
  readonly uuid: string;
  readonly vendorMessage: string;

  constructor(uuid: string, vendorMessage: string) {
    super(ERROR_CODES.orderCreationFailed, `Creation of order ${uuid} failed: ${vendorMessage}`);
    this.uuid = uuid;
    this.vendorMessage = vendorMessage;
  }
}

export const isOrderCreationFailedError = (error: unknown): error is OrderCreationFailedError =>
  hasCode(error, ERROR_CODES.orderCreationFailed);
