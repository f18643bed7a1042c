import type {
  OrderLine,
  OrderLineV1Input,
  OrderLineV2Input,
  QuoteOrderLineInput,
} from '@print-contracts/client';
import { productByCode, productBySku, QUOTE_LINE_PRICE } from '../catalogue.js';
import { cents, lineVat } from './amounts.js';

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

const VAT = 21;

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
      vatPercentage: VAT,
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
  return {
    productCode: product.productCode,
    description: `${product.description}, ${quantity} pieces`,
    price: cents((product.price * quantity) / product.defaultQuantity),
    quantity,
    vatPercentage: product.vatPercentage,
    productionDays: product.productionDays,
  };
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
