import {
  type Address,
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  EXAMPLE_PRODUCTS,
  UNKNOWN_PRODUCT,
} from '@print-contracts/client';

export const ADDRESS: Address = {
  firstName: 'Jan',
  lastName: 'de Vries',
  street: 'Keizersgracht',
  housenumber: '123',
  zipcode: '1015 CJ',
  city: 'Amsterdam',
  country: 'nl',
};

const files = [{ url: EXAMPLE_PRODUCTS.artworkUrl }];

export const V1_LINE = { productCode: EXAMPLE_PRODUCTS.v1ProductCode, files };
export const V2_LINE = { sku: EXAMPLE_PRODUCTS.v2Sku, attributes: [...EXAMPLE_PRODUCTS.v2Attributes], files };

/** A valid create payload for `version`, with `overrides` on top. */
export function orderFor(
  version: ApiVersion,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    invoiceAddress: ADDRESS,
    deliveryAddress: ADDRESS,
    deliveryMethod: 1,
    orderLines: [version === 'v1' ? { ...V1_LINE } : { ...V2_LINE }],
    reference: 'Contract test',
    ...overrides,
  };
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
