import type {
  OrderLine,
  OrderLineStatus,
  OrderLineV1Input,
  OrderLineV2Input,
  QuoteOrderLineInput,
} from '@print-contracts/client';
import {
  DELIVERY_METHOD_NAMES,
  type Product,
  productByCode,
  productBySku,
  QUOTE_LINE_PRICE,
  shippingCostFor,
} from '../catalogue.js';
import { cents, lineVat } from './amounts.js';
import { addWorkingDays, isoDateTime } from './dates.js';

/** A line as a create request sends it, in either version. */
export type RequestedLine = OrderLineV1Input | OrderLineV2Input | QuoteOrderLineInput;

/** What a requested line orders, priced. */
export interface LineChoice {
  readonly productCode: string;
  readonly description: string;
  readonly price: number;
  readonly quantity: number;
  readonly vatPercentage: number;
  readonly productionDays: number;
}

/** A line the catalogue cannot place: which field names the unknown product, and why. */
export interface UnknownProduct {
  readonly field: 'productCode' | 'sku';
  readonly reason: string;
}

/** `quantity` pieces of `product`, priced from its price for the default quantity. */
export const priced = (product: Product, quantity: number): LineChoice => ({
  productCode: product.productCode,
  description: `${product.description}, ${quantity} pieces`,
  price: cents((product.price * quantity) / product.defaultQuantity),
  quantity,
  vatPercentage: product.vatPercentage,
  productionDays: product.productionDays,
});

/** The `quantity` attribute of a v2 line, when it holds a positive whole number. */
function quantityAttribute(attributes: OrderLineV2Input['attributes'] | undefined): number | undefined {
  const value = attributes?.find((pair) => pair.attribute.toLowerCase() === 'quantity')?.value;
  return value !== undefined && /^[1-9]\d{0,6}$/.test(value.trim()) ? Number(value) : undefined;
}

/**
 * Prices a requested line from the catalogue. v1 names a product by `productCode`, v2 by
 * `sku` (its `quantity` attribute sets the amount), a quote line by `quoteLineItemId`.
 */
export function chooseLine(line: Partial<RequestedLine>): LineChoice | UnknownProduct {
  if ('quoteLineItemId' in line && line.quoteLineItemId !== undefined) {
    return {
      productCode: `quote-${line.quoteLineItemId}`,
      description: `Quote line item ${line.quoteLineItemId}`,
      price: QUOTE_LINE_PRICE,
      quantity: 1,
      vatPercentage: 21,
      productionDays: 5,
    };
  }
  const bySku = 'sku' in line && line.sku !== undefined;
  const code = bySku ? (line as OrderLineV2Input).sku : ((line as OrderLineV1Input).productCode ?? '');
  const product = bySku ? productBySku(code) : productByCode(code);
  if (product === undefined) {
    return bySku
      ? { field: 'sku', reason: `sku "${code}" is not a product category the vendor sells` }
      : { field: 'productCode', reason: `product "${code}" is not in the vendor's catalogue` };
  }
  const quantity =
    quantityAttribute((line as Partial<OrderLineV2Input>).attributes) ?? product.defaultQuantity;
  return priced(product, quantity);
}

export const isUnknownProduct = (choice: LineChoice | UnknownProduct): choice is UnknownProduct =>
  'reason' in choice;

/** Puts a (new) product on a line and reprices it; a discount given for the old product lapses. */
export function applyChoice(line: OrderLine, choice: LineChoice): void {
  line.productCode = choice.productCode;
  line.description = choice.description;
  line.price = choice.price;
  line.quantity = choice.quantity;
  line.vatPercentage = choice.vatPercentage;
  line.vatAmount = lineVat(line);
  line.customerDiscount = null;
}

/** What every line of one order shares. */
export interface LinePlacement {
  readonly addressId: number;
  readonly deliveryMethod: number;
  readonly orderedAt: number;
}

/**
 * A new line shaped as the docs show lines: the delivery address by id, a delivery date with
 * a time and an offset, the order's shipping cost on its first line only (the docs show a line
 * without the key), and `externalId` only when it was given (null included).
 */
export function orderLine(
  choice: LineChoice,
  placement: LinePlacement,
  line: { id: number | string; status: OrderLineStatus; first: boolean; externalId?: string | null },
): OrderLine {
  const made: OrderLine = {
    id: line.id,
    description: choice.description,
    price: choice.price,
    deliveryMethod:
      DELIVERY_METHOD_NAMES[placement.deliveryMethod] ?? `Delivery method ${placement.deliveryMethod}`,
    deliveryDate: isoDateTime(addWorkingDays(placement.orderedAt, choice.productionDays)),
    revisedDeliveryDate: null,
    productCode: choice.productCode,
    beforeDelivery: null,
    vatAmount: 0,
    vatPercentage: choice.vatPercentage,
    quantity: choice.quantity,
    addressInfo: placement.addressId,
    status: line.status,
    shipmentInfo: null,
    customerDiscount: null,
    ...(line.first ? { shippingCost: shippingCostFor(placement.deliveryMethod) } : {}),
    ...(line.externalId === undefined ? {} : { externalId: line.externalId }),
  };
  made.vatAmount = lineVat(made);
  return made;
}
