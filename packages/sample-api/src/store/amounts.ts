import type { OrderDetail, OrderLine } from '@print-contracts/client';

/** Euro amounts are kept to the cent, as the vendor sends them. */
export const cents = (amount: number): number => Math.round(amount * 100) / 100;

/** VAT on shipping: the vendor's order VAT includes it, its lines' VAT does not. */
export const SHIPPING_VAT_PERCENTAGE = 21;

/** A line's VAT, on its price only (as the docs' example lines show). */
export const lineVat = (line: Pick<OrderLine, 'price' | 'vatPercentage'>): number =>
  cents((line.price * line.vatPercentage) / 100);

/**
 * Recomputes the order's `vatAmount` and `total` as the docs describe them: the order's VAT
 * includes VAT on shipping, after customer discounts, so it is not the sum of the lines'
 * VAT; the total holds prices, shipping and VAT, less discounts.
 */
export function recomputeTotals(order: OrderDetail): void {
  let vat = 0;
  let net = 0;
  let shipping = 0;
  for (const line of order.lines) {
    const discount = line.customerDiscount;
    vat += line.vatAmount - (discount?.discountTaxAmount ?? 0);
    net += line.price - (discount?.discountAmount ?? 0);
    shipping += line.shippingCost ?? 0;
  }
  vat += (shipping * SHIPPING_VAT_PERCENTAGE) / 100;
  order.vatAmount = cents(vat);
  order.total = cents(net + shipping + vat);
}
