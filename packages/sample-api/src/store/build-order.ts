import type { ApiVersion, CreateOrderV1, CreateOrderV2, OrderDetail } from '@print-contracts/client';
import { recomputeTotals } from './amounts.js';
import { isoDateTime } from './dates.js';
import { chooseLine, isUnknownProduct, type LinePlacement, orderLine } from './order-lines.js';
import type { NewOrder } from './order-record.js';
import type { OrderStore } from './order-store.js';
import { shippingAddressOf } from './shipments.js';

/** A create request that passed the version's schema. */
export type CreateBody = CreateOrderV1 | CreateOrderV2;

/** Stand-in for a product the catalogue lacks; such an order never becomes readable unless forced. */
const UNPLACEABLE = {
  description: 'Product not available',
  price: 0,
  quantity: 1,
  vatPercentage: 21,
  productionDays: 5,
};

/** An order as the docs show one, its `vatAmount` and `total` computed from its lines. */
export function orderDetail(
  order: Pick<OrderDetail, 'id' | 'status' | 'lines' | 'deliveryAddress' | 'reference' | 'poNumber' | 'uuid'>,
  orderedAt: number,
): OrderDetail {
  const { id, status, lines, deliveryAddress, reference, poNumber, uuid } = order;
  const detail: OrderDetail = {
    id,
    number: `DDB${id}`,
    status,
    date: isoDateTime(orderedAt),
    lines,
    deliveryAddress,
    reference,
    poNumber,
    vatAmount: 0,
    uuid,
    total: 0,
  };
  recomputeTotals(detail);
  return detail;
}

/**
 * The order a valid create request becomes; a line without artwork waits for it. It is
 * readable `processingDelayMs` after `now`; a line the catalogue cannot place makes it fail
 * processing instead, as at the vendor.
 */
export function buildOrder(
  store: OrderStore,
  body: CreateBody,
  version: ApiVersion,
  now: number,
  processingDelayMs: number,
): NewOrder {
  const failures: string[] = [];
  const placement: LinePlacement = {
    addressId: store.nextAddressId(),
    deliveryMethod: body.deliveryMethod,
    orderedAt: now,
  };
  const lines = body.orderLines.map((requested, index) => {
    const choice = chooseLine(requested);
    if (isUnknownProduct(choice)) failures.push(`orderLines[${index}]: ${choice.reason}`);
    const placed = isUnknownProduct(choice)
      ? {
          ...UNPLACEABLE,
          productCode:
            'productCode' in requested ? requested.productCode : 'sku' in requested ? requested.sku : '',
        }
      : choice;
    return orderLine(placed, placement, {
      id: store.nextLineId(),
      status: requested.files === undefined ? 'waiting-for-artwork' : 'processing',
      first: index === 0,
      externalId: requested.externalId,
    });
  });
  const id = store.nextOrderId();
  const fields = {
    id,
    status: 'in-progress' as const,
    lines,
    deliveryAddress: placement.addressId,
    reference: body.reference ?? null,
    poNumber: body.poNumber ?? null,
    uuid: store.newUuid(),
  };
  return {
    detail: orderDetail(fields, now),
    shippingAddress: shippingAddressOf(body.deliveryAddress),
    readyAt: now + processingDelayMs,
    failure: failures.length > 0 ? failures.join('; ') : undefined,
    testOrder: body.testOrder ?? false,
    origin: version,
  };
}
