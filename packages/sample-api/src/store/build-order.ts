import type {
  ApiVersion,
  CreateOrderV1,
  CreateOrderV2,
  OrderDetail,
  OrderLine,
} from '@print-contracts/client';
import { DELIVERY_METHOD_NAMES, shippingCostFor } from '../catalogue.js';
import { lineVat, recomputeTotals } from './amounts.js';
import { addWorkingDays, isoDateTime } from './dates.js';
import { chooseLine, isUnknownProduct } from './order-lines.js';
import type { NewOrder, OrderStore } from './order-store.js';
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

/**
 * The order a valid create request becomes, shaped as the docs show orders: the delivery
 * address by id, delivery dates with a time and an offset, the order's shipping cost on its
 * first line only, `externalId` only on lines that were given one, and a line without
 * artwork waiting for it. It is readable `processingDelayMs` after `now`; a line the
 * catalogue cannot place makes it fail processing instead, as at the vendor.
 */
export function buildOrder(
  store: OrderStore,
  body: CreateBody,
  version: ApiVersion,
  now: number,
  processingDelayMs: number,
): NewOrder {
  const failures: string[] = [];
  const deliveryMethod =
    DELIVERY_METHOD_NAMES[body.deliveryMethod] ?? `Delivery method ${body.deliveryMethod}`;
  const addressId = store.nextAddressId();
  const lines = body.orderLines.map((requested, index): OrderLine => {
    const choice = chooseLine(requested);
    const known = isUnknownProduct(choice) ? undefined : choice;
    if (isUnknownProduct(choice)) failures.push(`orderLines[${index}]: ${choice.reason}`);
    const placed = known ?? {
      ...UNPLACEABLE,
      productCode:
        'productCode' in requested ? requested.productCode : 'sku' in requested ? requested.sku : '',
    };
    const line: OrderLine = {
      id: store.nextLineId(),
      description: placed.description,
      price: placed.price,
      deliveryMethod,
      deliveryDate: isoDateTime(addWorkingDays(now, placed.productionDays)),
      revisedDeliveryDate: null,
      productCode: placed.productCode,
      beforeDelivery: null,
      vatAmount: 0,
      vatPercentage: placed.vatPercentage,
      quantity: placed.quantity,
      addressInfo: addressId,
      status: requested.files === undefined ? 'waiting-for-artwork' : 'processing',
      shipmentInfo: null,
      customerDiscount: null,
      ...(index === 0 ? { shippingCost: shippingCostFor(body.deliveryMethod) } : {}),
      ...(requested.externalId === undefined ? {} : { externalId: requested.externalId }),
    };
    line.vatAmount = lineVat(line);
    return line;
  });
  const id = store.nextOrderId();
  const detail: OrderDetail = {
    id,
    number: `DDB${id}`,
    status: 'in-progress',
    date: isoDateTime(now),
    lines,
    deliveryAddress: addressId,
    reference: body.reference ?? null,
    poNumber: body.poNumber ?? null,
    vatAmount: 0,
    uuid: store.newUuid(),
    total: 0,
  };
  recomputeTotals(detail);
  return {
    detail,
    shippingAddress: shippingAddressOf(body.deliveryAddress),
    readyAt: now + processingDelayMs,
    failure: failures.length > 0 ? failures.join('; ') : undefined,
    testOrder: body.testOrder ?? false,
    origin: version,
  };
}
