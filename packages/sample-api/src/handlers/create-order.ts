import { jsonAnswer } from '../http/answer.js';
import { buildOrder, type CreateBody } from '../store/build-order.js';
import type { OperationHandler } from './context.js';

/**
 * `POST /orders`: answers 201 `{uuid}` at once; the order becomes readable after the
 * processing delay, or fails processing then when a line names an unknown product.
 */
export const createOrder: OperationHandler = (
  { userId, version, body, now },
  { store, processingDelayMs },
) => {
  const order = buildOrder(store, body as CreateBody, version, now, processingDelayMs);
  store.add(userId, order);
  return jsonAnswer(201, { uuid: order.detail.uuid });
};
