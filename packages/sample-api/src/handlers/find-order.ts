import { orderRefSchema } from '@print-contracts/client';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { creationFailedMessage } from '../store/order-lifecycle.js';
import type { OrderRecord } from '../store/order-record.js';
import { visibility } from '../store/order-record.js';
import type { OrderStore } from '../store/order-store.js';

/** The vendor's answer for an order the caller cannot see. */
export const ORDER_NOT_FOUND = 'Order not found';

const notFound = () => new ApiAnswerError(404, ORDER_NOT_FOUND);

/**
 * The caller's order that `id` (numeric id or uuid) names, once processed. An order still
 * processing, another set's order and a malformed id all read as 404 "Order not found"; an
 * order whose creation failed reads as 404 with a message saying so.
 */
export function findReadableOrder(
  store: OrderStore,
  userId: string,
  id: string | undefined,
  now: number,
): OrderRecord {
  if (id === undefined || !orderRefSchema.safeParse(id).success) throw notFound();
  const record = store.find(userId, id);
  if (record === undefined) throw notFound();
  const seen = visibility(record, now);
  if (seen === 'processing') throw notFound();
  if (seen === 'failed')
    throw new ApiAnswerError(404, creationFailedMessage(record.failure ?? 'unknown reason'));
  return record;
}
