import type { OperationName } from '@print-contracts/client';
import { cancelOrder } from './cancel-order.js';
import type { OperationHandler } from './context.js';
import { createOrder } from './create-order.js';
import { getOrder } from './get-order.js';
import { listOrders } from './list-orders.js';
import { updateOrder } from './update-order.js';

/** One handler per operation of the client's table; PUT and POST updates share one. */
export const HANDLERS: Readonly<Record<OperationName, OperationHandler>> = {
  listOrders,
  getOrder,
  createOrder,
  updateOrder,
  updateOrderWithPost: updateOrder,
  cancelOrder,
};

export type { HandlerDeps, OperationHandler, OperationRequest } from './context.js';
