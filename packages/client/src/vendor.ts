/**
 * What the vendor's public documentation says where the interface document is silent
 * (shared/VENDOR-FACTS.md). These are defaults: every one can be overridden, because the
 * vendor changes its API and catching that is the kit's job.
 */

import type { Address, CreateOrderV1, CreateOrderV2 } from './schemas/order-request.js';
import { VENDOR_EXAMPLES } from './vendor-examples.js';

/** The API versions the kit knows. v1 is deprecated; new integrations use v2. */
export const API_VERSIONS = ['v1', 'v2'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Names of the two credential headers sent with every request. */
export const USER_ID_HEADER = 'User-ID';
export const SECRET_HEADER = 'API-Secret';

/** The version travels in this header; `{version}` is replaced by `v1` or `v2`. */
export const DEFAULT_VERSION_HEADER = {
  name: 'Accept',
  template: 'application/vnd.printdeal-api.{version}',
} as const;

/** Without a version header the vendor answers as v1. */
export const VERSION_WITHOUT_HEADER: ApiVersion = 'v1';

export const ORDER_STATUSES = ['in-progress', 'completed', 'cancelled', 'unknown'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const ORDER_LINE_STATUSES = [
  'processing',
  'in-progress',
  'cancelled',
  'waiting-for-artwork',
  'artwork-rejected',
  'in-production',
  'shipped',
] as const;
export type OrderLineStatus = (typeof ORDER_LINE_STATUSES)[number];

/** Countries the vendor ships to; the documentation's examples send them lower-case. */
export const SHIPPING_COUNTRIES = [
  'NL',
  'BE',
  'DE',
  'FR',
  'LU',
  'DK',
  'GB',
  'IT',
  'AT',
  'ES',
  'FI',
  'SE',
] as const;

/** Delivery method ids per version: 1 is home or work; 6, 18 and 19 are v1-only pick-up points. */
export const DELIVERY_METHODS: Readonly<Record<ApiVersion, readonly number[]>> = {
  v1: [1, 6, 18, 19],
  v2: [1],
};

export const LIST_LIMIT_MAX = 50;
export const REFERENCE_MAX_LENGTH = 35;
export const PO_NUMBER_MAX_LENGTH = 120;

/** Message of the 500 the vendor answers when an order in production cannot be cancelled. */
export const CANCEL_REFUSED_MESSAGE = 'Cancel order failed';

const documented = VENDOR_EXAMPLES.createOrder.body;
const [documentedLine] = documented.orderLines;
const [documentedDetailLine] = VENDOR_EXAMPLES.orderDetail.body.lines;

/**
 * Products the kit's examples order: the ones the vendor's documentation orders and shows (a
 * v1 product code from its order detail, a v2 category with attributes and an artwork URL from
 * its create example), which the sample API sells. Whether the vendor still sells them is not
 * documented: a live run orders a product of the user's own (see the verifier's
 * `--order-fixture`).
 */
export const EXAMPLE_PRODUCTS = {
  v1ProductCode: documentedDetailLine.productCode,
  v2Sku: documentedLine.sku,
  v2Attributes: documentedLine.attributes,
  artworkUrl: documentedLine.files[0].url,
} as const;

/** A product no vendor sells: an order for it is accepted, then fails asynchronous processing. */
export const UNKNOWN_PRODUCT = {
  v1ProductCode: 'no-such-product',
  v2Sku: '00000000-0000-4000-8000-000000000000',
} as const;

/** Environment variables the kit reads credentials and the base URL from. */
export const ENV = {
  baseUrl: 'PRINT_API_BASE_URL',
  userId: 'PRINT_API_USER_ID',
  secret: 'PRINT_API_SECRET',
} as const;

/** The value of the version header for `version`. */
export function versionHeaderValue(version: ApiVersion, template: string = DEFAULT_VERSION_HEADER.template) {
  return template.replaceAll('{version}', version);
}

/** The delivery address of the docs' create example: a complete address the vendor ships to. */
export const EXAMPLE_ADDRESS: Readonly<Address> = Object.freeze({ ...documented.deliveryAddress });

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
    invoiceAddress: { ...documented.invoiceAddress },
    deliveryAddress: { ...documented.deliveryAddress },
    deliveryMethod: 1,
    ...overrides,
  } as ExampleOrder<V>;
}
