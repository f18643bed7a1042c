import type { OperationHandler } from './context.js';
import { findReadableOrder } from './find-order.js';

/** `GET /orders/{id}`: the order by numeric id or uuid, from its cached JSON. */
export const getOrder: OperationHandler = ({ userId, id, now }, { store }) => {
  const record = findReadableOrder(store, userId, id, now);
  return { status: 200, body: store.detailJson(record) };
};
