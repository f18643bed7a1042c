import type { z } from 'zod';
import {
  cancelResultSchema,
  orderCreatedSchema,
  orderDetailSchema,
  orderListSchema,
  updateResultSchema,
} from './schemas/order.js';
import {
  cancelOrderSchema,
  createOrderV1Schema,
  createOrderV2Schema,
  listQuerySchema,
  updateOrderV1Schema,
  updateOrderV2Schema,
} from './schemas/order-request.js';
import { API_VERSIONS, type ApiVersion } from './vendor.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Where the orders interface lives below the vendor's origin: its base URL ends in it, and
 * every path of the table is relative to it. The one place the kit writes it.
 */
export const API_BASE_PATH = '/api';

/** The vendor's base URL: its origin and the base path. */
export const DEFAULT_BASE_URL = `https://api.printdeal.com${API_BASE_PATH}`;

type PerVersion<T> = Readonly<Record<ApiVersion, T>>;

/** One operation of the orders interface, described once and read by every package. */
export interface OperationDefinition {
  readonly method: HttpMethod;
  /** Relative to the base URL (which ends in `/api`); `{id}` is the numeric id or the uuid. */
  readonly path: '/orders' | '/orders/{id}';
  readonly summary: string;
  readonly versions: readonly ApiVersion[];
  /**
   * Safe to send twice: only these are sent again after an answer that never came. Every operation
   * is sent again after a 429, a 503 or a connection never made: nothing was processed.
   */
  readonly idempotent: boolean;
  readonly query?: z.ZodType;
  readonly body?: PerVersion<z.ZodType>;
  readonly response: PerVersion<z.ZodType>;
  /** The vendor documents no success status, so the kit relies on the class (2xx) only. */
  readonly success: '2xx';
  /**
   * Error statuses the vendor documents for this operation, when, and where. Every other
   * refusal (credentials, invalid input, unknown order on update or cancel) is undocumented:
   * the contracts pin only its class.
   */
  readonly documentedErrors: Readonly<Partial<Record<400 | 404 | 500, string>>>;
}

const both = <T>(value: T): PerVersion<T> => ({ v1: value, v2: value });

/** Update with PUT; the vendor takes POST on the same path as the very same operation. */
const UPDATE_ORDER = {
  method: 'PUT',
  path: '/orders/{id}',
  summary: 'Updates an order with the whole payload or only the changed part',
  versions: API_VERSIONS,
  idempotent: false,
  body: { v1: updateOrderV1Schema, v2: updateOrderV2Schema },
  response: both(updateResultSchema),
  success: '2xx',
  documentedErrors: {
    400: 'a field can (no longer) be modified, e.g. the order is in production (docs/Orders/Changing_orders.rst, removed 2020)',
  },
} as const satisfies OperationDefinition;

/**
 * The orders interface, as a table. The client sends from it, the sample API routes and
 * validates from it, the consumer suite and the verifier name interactions from it.
 */
export const operations = {
  listOrders: {
    method: 'GET',
    path: '/orders',
    summary: "Returns one page of the caller's orders",
    versions: API_VERSIONS,
    idempotent: true,
    query: listQuerySchema,
    response: both(orderListSchema),
    success: '2xx',
    documentedErrors: {},
  },
  getOrder: {
    method: 'GET',
    path: '/orders/{id}',
    summary: 'Returns one order, by numeric id or uuid',
    versions: API_VERSIONS,
    idempotent: true,
    response: both(orderDetailSchema),
    success: '2xx',
    documentedErrors: {
      404: 'unknown order, or its asynchronous creation failed (docs/Orders/Retrieving_order_information.rst)',
    },
  },
  createOrder: {
    method: 'POST',
    path: '/orders',
    summary: 'Creates an order asynchronously and answers its uuid',
    versions: API_VERSIONS,
    idempotent: false,
    body: { v1: createOrderV1Schema, v2: createOrderV2Schema },
    response: both(orderCreatedSchema),
    success: '2xx',
    documentedErrors: {},
  },
  updateOrder: UPDATE_ORDER,
  updateOrderWithPost: {
    ...UPDATE_ORDER,
    method: 'POST',
    summary: 'Same as PUT on the same path: updates an order',
  },
  cancelOrder: {
    method: 'DELETE',
    path: '/orders/{id}',
    summary: 'Cancels an order, with a reason',
    versions: API_VERSIONS,
    idempotent: false,
    body: both(cancelOrderSchema),
    response: both(cancelResultSchema),
    success: '2xx',
    documentedErrors: {
      500: 'the order is in production: the answer contains "Cancel order failed" (docs/Orders/Cancelling_an_order.rst)',
    },
  },
} as const satisfies Record<string, OperationDefinition>;

export type Operations = typeof operations;
export type OperationName = keyof Operations;
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

type BodySchemaOf<N extends OperationName, V extends ApiVersion> = Operations[N] extends {
  body: PerVersion<z.ZodType>;
}
  ? Operations[N]['body'][V]
  : never;

/** What a caller passes as the body of operation `N` in version `V`. */
export type RequestBody<N extends OperationName, V extends ApiVersion> = z.input<BodySchemaOf<N, V>>;
/** What operation `N` answers in version `V`, once validated. */
export type ResponseBody<N extends OperationName, V extends ApiVersion> = z.output<
  Operations[N]['response'][V]
>;

/** The path template's placeholder for the order's numeric id or uuid. */
export const ID_PLACEHOLDER = '{id}';

/** `/orders/{id}` with the id filled in and encoded, relative to the base path. */
export function expandPath(path: OperationDefinition['path'], id?: string | number): string {
  if (!path.includes(ID_PLACEHOLDER)) return path;
  if (id === undefined) throw new TypeError(`Path ${path} needs an order id`);
  return path.replace(ID_PLACEHOLDER, encodeURIComponent(String(id)));
}

/** `/orders/{id}` with `{id}` replaced by `replacement` as is (a regex, a `${id}` expression). */
export function fillPath(path: OperationDefinition['path'], replacement: string): string {
  return path.replace(ID_PLACEHOLDER, replacement);
}

/**
 * The query keys of an operation, in the order the client writes them: the keys of its
 * query schema, so the client, the sample API and the contracts never list them again.
 */
export function queryKeys(operation: OperationDefinition): readonly string[] {
  const schema = operation.query as { shape?: Record<string, unknown> } | undefined;
  return schema?.shape ? Object.keys(schema.shape) : [];
}

/**
 * A regular expression for a path template under `basePath`, with `{id}` as one path
 * segment; used to route in the sample API and to pin injected paths in the contracts.
 */
export function pathPattern(path: OperationDefinition['path'], basePath = ''): RegExp {
  const escaped = `${basePath}${path}`
    .replace(/[.*+?^$()|[\]\\]/g, '\\$&')
    .replace(ID_PLACEHOLDER, '([^/]+)');
  return new RegExp(`^${escaped}$`);
}
