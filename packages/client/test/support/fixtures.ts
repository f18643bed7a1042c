import {
  type Address,
  type ApiVersion,
  type CreateOrderV1,
  type CreateOrderV2,
  EXAMPLE_PRODUCTS,
  type OrderDetail,
  type OrderStatus,
  type OrderSummary,
} from '../../src/index.js';
import { VENDOR_EXAMPLES } from '../../src/kit.js';

/** Credentials of the tests; the secret is distinctive so a leak of it is easy to find. */
export const USER_ID = 'user-7d41';
export const SECRET = 'sk_test_Zq8-DO-NOT-LEAK-4f1e';

export const ORDER_ID = 4711;
export const ORDER_UUID = '3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c';

export const address: Address = {
  firstName: 'Anna',
  lastName: 'de Vries',
  street: 'Keizersgracht',
  housenumber: '12',
  zipcode: '1015 CX',
  city: 'Amsterdam',
  country: 'nl',
};

const file = { url: EXAMPLE_PRODUCTS.artworkUrl };

export const createBodyV1: CreateOrderV1 = {
  invoiceAddress: address,
  deliveryAddress: address,
  deliveryMethod: 1,
  orderLines: [{ productCode: EXAMPLE_PRODUCTS.v1ProductCode, files: [file] }],
};

export const createBodyV2: CreateOrderV2 = {
  invoiceAddress: address,
  deliveryAddress: address,
  deliveryMethod: 1,
  orderLines: [
    { sku: EXAMPLE_PRODUCTS.v2Sku, attributes: [...EXAMPLE_PRODUCTS.v2Attributes], files: [file] },
  ],
};

/** A valid create payload per version: v1 orders by `productCode`, v2 by `sku` and attributes. */
export const createBodies = { v1: createBodyV1, v2: createBodyV2 } as const;

/** A fresh copy of the version's create payload, as a plain object a test may break. */
export function createBody(version: ApiVersion): Record<string, unknown> & { orderLines: unknown[] } {
  return structuredClone(createBodies[version]) as Record<string, unknown> & { orderLines: unknown[] };
}

export function orderSummary(id: number, status: OrderStatus = 'in-progress'): OrderSummary {
  return {
    id,
    number: `DDB${String(1_000_000 + id)}`,
    status,
    date: '2024-03-05T10:15:00+01:00',
    uuid: id % 2 === 0 ? null : ORDER_UUID,
  };
}

/** An order as `GET /orders/{id}` answers it: the vendor's documented example, with the tests' id and uuid. */
export const orderDetail: OrderDetail = {
  ...(structuredClone(VENDOR_EXAMPLES.orderDetail.body) as unknown as OrderDetail),
  id: ORDER_ID,
  uuid: ORDER_UUID,
};

/** The order detail as a plain JSON value a test may break. */
export function orderDetailJson(): Record<string, unknown> & { lines: Record<string, unknown>[] } {
  return structuredClone(orderDetail) as unknown as Record<string, unknown> & {
    lines: Record<string, unknown>[];
  };
}

/** Parses the body the server received. */
export function jsonOf(body: string): unknown {
  return JSON.parse(body) as unknown;
}
