import type { ApiVersion, OrderDetail, OrderSummary } from '@print-contracts/client';
import type { ShippingAddress } from './shipments.js';

/** One stored order of one credential set, with what the public answer does not show. */
export interface OrderRecord {
  /** The credential set the order belongs to; no other set ever sees it. */
  readonly userId: string;
  /** The order exactly as `GET /orders/{id}` answers it. */
  readonly detail: OrderDetail;
  /** Where it is delivered: the answer names the address by id only, its shipments in full. */
  shippingAddress: ShippingAddress;
  /** Creation is asynchronous: before this instant (epoch ms) the order reads as not found. */
  readyAt: number;
  /** Why processing failed; from `readyAt` on the order reads as 404 "creation failed". */
  failure: string | undefined;
  testOrder: boolean;
  cancelReason: string | undefined;
  /** How the order came to be: seed data, or created through the v1 or v2 API. */
  readonly origin: 'seed' | ApiVersion;
  /** `detail` serialized once; cleared on every change. */
  json: string | undefined;
  /** The list entry serialized once; cleared on every change. */
  summaryJson: string | undefined;
}

/** A record before the store holds it: what it has not been told yet starts empty. */
export type NewOrder = Omit<OrderRecord, 'userId' | 'cancelReason' | 'json' | 'summaryJson'>;

export type Visibility = 'processing' | 'failed' | 'ready';

/** What the public API may see of the order at `now`. */
export function visibility(record: OrderRecord, now: number): Visibility {
  if (now < record.readyAt) return 'processing';
  return record.failure === undefined ? 'ready' : 'failed';
}

/** The list entry of an order. */
export const summaryOf = ({ id, number, status, date, uuid }: OrderDetail): OrderSummary => ({
  id,
  number,
  status,
  date,
  uuid,
});
