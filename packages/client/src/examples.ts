import type { Address, CreateOrderV1, CreateOrderV2 } from './schemas/order-request.js';
import { type ApiVersion, EXAMPLE_PRODUCTS } from './vendor.js';
import { VENDOR_EXAMPLES } from './vendor-examples.js';

const documented = VENDOR_EXAMPLES.createOrder.body;

/** The delivery address of the docs' create example: a complete address the vendor ships to. */
export const EXAMPLE_ADDRESS: Readonly<Address> = Object.freeze({ ...documented.deliveryAddress });

/** The invoice address of the docs' create example. */
export const EXAMPLE_INVOICE_ADDRESS: Readonly<Address> = Object.freeze({ ...documented.invoiceAddress });

const files = () => [{ url: EXAMPLE_PRODUCTS.artworkUrl }];

/** An order line of `version`'s shape for the example product, with its artwork. */
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
 * A valid create payload of `version`'s shape for the example product, with the addresses of
 * the docs' create example, delivered home (the one delivery method of both versions); a fresh
 * copy on every call.
 */
export function exampleOrder<V extends ApiVersion>(
  version: V,
  overrides: Partial<ExampleOrder<V>> = {},
): ExampleOrder<V> {
  return {
    orderLines: [exampleOrderLine(version)],
    invoiceAddress: { ...EXAMPLE_INVOICE_ADDRESS },
    deliveryAddress: { ...EXAMPLE_ADDRESS },
    deliveryMethod: 1,
    ...overrides,
  } as ExampleOrder<V>;
}
