import {
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  exampleOrder,
  exampleOrderLine,
  REFERENCE_MAX_LENGTH,
  UNKNOWN_PRODUCT,
} from '@print-contracts/client';

/**
 * The body of an order the verifier creates to arrange a provider state: the client's
 * example order, always as a test order (`testOrder: true`, never produced nor billed), with
 * a reference naming the run so a person can tell it apart on the target. `product:
 * 'unknown'` orders a product no vendor sells, whose asynchronous creation fails.
 */
export function fixtureOrder(
  version: ApiVersion,
  run: string,
  product: 'example' | 'unknown' = 'example',
): CreateOrderV1 | CreateOrderV2 {
  const reference = `contract verify ${run}`.slice(0, REFERENCE_MAX_LENGTH);
  const order = exampleOrder(version, { testOrder: true, reference });
  if (product === 'example') return order;
  const line = exampleOrderLine(version);
  const unknown =
    'productCode' in line
      ? { ...line, productCode: UNKNOWN_PRODUCT.v1ProductCode }
      : { ...line, sku: UNKNOWN_PRODUCT.v2Sku };
  return { ...order, orderLines: [unknown] } as CreateOrderV1 | CreateOrderV2;
}
