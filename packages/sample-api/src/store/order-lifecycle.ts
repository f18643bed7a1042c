import type { OrderDetail, OrderLineStatus } from '@print-contracts/client';
import type { ControlState } from '../control-surface.js';
import type { OrderRecord } from './order-record.js';
import { shipmentOf } from './shipments.js';

/** Line statuses in which the vendor still lets an order change. */
const CHANGEABLE_LINE_STATUSES: ReadonlySet<OrderLineStatus> = new Set([
  'processing',
  'in-progress',
  'waiting-for-artwork',
  'artwork-rejected',
]);

/** Line statuses past the point where cancelling is possible. */
const TOO_LATE_TO_CANCEL: ReadonlySet<OrderLineStatus> = new Set(['in-production', 'shipped']);

/** Why an update of `order` is refused (400), or undefined when it may change. */
export function whyUnchangeable(order: OrderDetail): string | undefined {
  if (order.status === 'cancelled' || order.status === 'completed') return `it is ${order.status}`;
  const busy = order.lines.find((line) => !CHANGEABLE_LINE_STATUSES.has(line.status));
  return busy ? `its line ${busy.id} is ${busy.status}` : undefined;
}

export type CancelOutcome = 'cancel' | 'already-cancelled' | 'refused';

/**
 * What cancelling `order` does: an order in production, shipped or completed is refused
 * (the vendor's 500 "Cancel order failed"); an already cancelled one stays cancelled.
 */
export function cancelOutcome(order: OrderDetail): CancelOutcome {
  if (order.status === 'cancelled') return 'already-cancelled';
  if (order.status === 'completed') return 'refused';
  return order.lines.some((line) => TOO_LATE_TO_CANCEL.has(line.status)) ? 'refused' : 'cancel';
}

export function cancel(record: OrderRecord, reason: string): void {
  record.detail.status = 'cancelled';
  for (const line of record.detail.lines) line.status = 'cancelled';
  record.cancelReason = reason;
}

/** Message of the 404 for an order whose creation failed; the client recognises /fail/i. */
export const creationFailedMessage = (reason: string) => `Order creation failed: ${reason}`;

/** Puts the order in `state` now; a still-processing order finishes processing at once. */
export function applyControlState(record: OrderRecord, state: ControlState, now: number): void {
  const order = record.detail;
  record.readyAt = Math.min(record.readyAt, now);
  if (state === 'creation-failed') {
    record.failure ??= 'the order was marked as failed through the control surface';
    return;
  }
  record.failure = undefined;
  const lineStatus: Record<Exclude<ControlState, 'creation-failed'>, OrderLineStatus> = {
    processing: 'processing',
    'in-production': 'in-production',
    shipped: 'shipped',
    completed: 'shipped',
    cancelled: 'cancelled',
  };
  order.status = state === 'completed' ? 'completed' : state === 'cancelled' ? 'cancelled' : 'in-progress';
  const sent = state === 'shipped' || state === 'completed';
  for (const line of order.lines) {
    line.status = lineStatus[state];
    line.shipmentInfo = sent ? [shipmentOf(record.shippingAddress, line, 1)] : null;
  }
}
