import { CANCEL_REFUSED_MESSAGE, type CancelOrder } from '@print-contracts/client';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { cancel, cancelOutcome } from '../store/order-lifecycle.js';
import type { OperationHandler } from './context.js';
import { findReadableOrder } from './find-order.js';

const CANCELLED = JSON.stringify({ success: true });

/**
 * `DELETE /orders/{id}` with `{reason}`: `{success: true}`. Too late (in production, shipped,
 * completed) is the vendor's 500 "Cancel order failed". Cancelling a cancelled order
 * answers `{success: true}` again: the order is cancelled, which is what the caller asked.
 */
export const cancelOrder: OperationHandler = ({ userId, id, body, now }, { store }) => {
  const record = findReadableOrder(store, userId, id, now);
  const outcome = cancelOutcome(record.detail);
  if (outcome === 'refused') throw new ApiAnswerError(500, CANCEL_REFUSED_MESSAGE);
  if (outcome === 'cancel') {
    cancel(record, (body as CancelOrder).reason);
    store.changed(record);
  }
  return { status: 200, body: CANCELLED };
};
