import type { OrderDetail, OrderLine } from '@print-contracts/client';

/** Euro amounts are kept to the cent, as the vendor sends them. */
export const cents = (amount: number): number => Math.round(amount * 100) / 100;

/** A line's VAT on its price and shipping. */
export const lineVat = (line: Pick<OrderLine, 'price' | 'shippingCost' | 'vatPercentage'>): number =>
  cents(((line.price + line.shippingCost) * line.vatPercentage) / 100);

/** Recomputes the order's `vatAmount` and `total` (VAT included, discounts off) from its lines. */
export function recomputeTotals(order: OrderDetail): void {
  let vat = 0;
  let total = 0;
  for (const line of order.lines) {
    const discount = line.customerDiscount;
    vat += line.vatAmount - (discount?.discountTaxAmount ?? 0);
    total +=
      line.price +
      line.shippingCost +
      line.vatAmount -
      (discount ? discount.discountAmount + discount.discountTaxAmount : 0);
  }
  order.vatAmount = cents(vat);
  order.total = cents(total);
}
