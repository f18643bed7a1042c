import {
  type Address,
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  EXAMPLE_ADDRESS,
  EXAMPLE_PRODUCTS,
  exampleOrder,
  exampleOrderLine,
  UNKNOWN_PRODUCT,
} from '@print-contracts/client';

/** The client's example address and lines: one set of example data for the whole kit. */
export const ADDRESS: Address = EXAMPLE_ADDRESS;
const files = [{ url: EXAMPLE_PRODUCTS.artworkUrl }];
export const V1_LINE = exampleOrderLine('v1');
export const V2_LINE = exampleOrderLine('v2');

/** A valid create payload for `version`, with `overrides` on top. */
export function orderFor(
  version: ApiVersion,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return { ...exampleOrder(version), reference: 'Contract test', ...overrides };
}

export const v1Order = (overrides: Partial<CreateOrderV1> = {}) => orderFor('v1', overrides) as CreateOrderV1;
export const v2Order = (overrides: Partial<CreateOrderV2> = {}) => orderFor('v2', overrides) as CreateOrderV2;

/** A payload the sample API accepts (201) and then fails to process. */
export function unknownProductOrder(version: ApiVersion): Record<string, unknown> {
  const line =
    version === 'v1'
      ? { productCode: UNKNOWN_PRODUCT.v1ProductCode, files }
      : { sku: UNKNOWN_PRODUCT.v2Sku, attributes: [{ attribute: 'size', value: 'A5' }], files };
  return orderFor(version, { orderLines: [line] });
}

export const VERSIONS = ['v1', 'v2'] as const satisfies readonly ApiVersion[];
