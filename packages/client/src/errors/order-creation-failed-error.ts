import { ERROR_CODES, guardFor, PrintOrderError } from './print-order-error.js';

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

export const isOrderCreationFailedError = guardFor<OrderCreationFailedError>(ERROR_CODES.orderCreationFailed);
