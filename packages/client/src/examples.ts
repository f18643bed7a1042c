import type { Address, CreateOrderV1, CreateOrderV2 } from './schemas/order-request.js';
import { type ApiVersion, EXAMPLE_PRODUCTS } from './vendor.js';

/** A complete address in a country the vendor ships to. */
export const EXAMPLE_ADDRESS: Readonly<Address> = Object.freeze({
  firstName: 'Sanne',
  lastName: 'de Vries',
  street: 'Keizersgracht',
  housenumber: '123',
  zipcode: '1015 CJ',
  city: 'Amsterdam',
  country: 'nl',
});

const files = () => [{ url: EXAMPLE_PRODUCTS.artworkUrl }];

/** An order line of `version`'s shape for the example product. */
export const exampleOrderLine = (version: ApiVersion) =>
  version === 'v1'
    ? { productCode: EXAMPLE_PRODUCTS.v1ProductCode, files: files() }
    : {
        sku: EXAMPLE_PRODUCTS.v2Sku,
        attributes: EXAMPLE_PRODUCTS.v2Attributes.map((attribute) => ({ ...attribute })),
        files: files(),
      };

type ExampleOrder<V extends ApiVersion> = V extends 'v1' ? CreateOrderV1 : CreateOrderV2;

/**
 * A valid create payload of `version`'s shape, for the example product, delivered home
 * (the one delivery method of both versions); a fresh copy on every call.
 */
export function exampleOrder<V extends ApiVersion>(
  version: V,
  overrides: Partial<ExampleOrder<V>> = {},
): ExampleOrder<V> {
  return {
    orderLines: [exampleOrderLine(version)],
    invoiceAddress: { ...EXAMPLE_ADDRESS },
    deliveryAddress: { ...EXAMPLE_ADDRESS },
    deliveryMethod: 1,
    ...overrides,
  } as ExampleOrder<V>;
}
