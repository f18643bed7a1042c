import {
  type ApiVersion,
  CANCEL_REFUSED_MESSAGE,
  type CancelOrder,
  type FieldIssue,
  LIST_LIMIT_MAX,
  listQuerySchema,
  type OperationName,
  type OrderLine,
  orderRefSchema,
  toFieldIssues,
  type UpdateOrderV1,
  type UpdateOrderV2,
} from '@print-contracts/client';
import { productByCode } from './catalogue.js';
import { ApiAnswerError } from './errors/api-answer-error.js';
import { type Answer, jsonAnswer } from './http/answer.js';
import { recomputeTotals } from './store/amounts.js';
import { buildOrder, type CreateBody } from './store/build-order.js';
import { cancel, cancelOutcome, creationFailedMessage, whyUnchangeable } from './store/order-lifecycle.js';
import { applyChoice, chooseLine, isUnknownProduct, type RequestedLine } from './store/order-lines.js';
import { type OrderRecord, visibility } from './store/order-record.js';
import type { OrderStore } from './store/order-store.js';
import { shippingAddressOf } from './store/shipments.js';

/** A request that passed authentication, versioning, routing and its operation's body schema. */
export interface OperationRequest {
  /** The credential set the request was made with: it sees only its own orders. */
  readonly userId: string;
  readonly version: ApiVersion;
  /** The decoded `{id}` segment, for operations on one order. */
  readonly id: string | undefined;
  /** The raw query string, without `?`. */
  readonly query: string | undefined;
  /** The body, already parsed by the operation's schema for `version`. */
  readonly body: unknown;
  /** When the request arrived (epoch ms): decides whether an order has finished processing. */
  readonly now: number;
}

/** What handlers share: the orders and the simulated processing time. */
export interface HandlerDeps {
  readonly store: OrderStore;
  readonly processingDelayMs: number;
}

/** Answers one operation; throws `ApiAnswerError` to refuse. Synchronous: the store is in memory. */
type OperationHandler = (request: OperationRequest, deps: HandlerDeps) => Answer;

const notFound = () => new ApiAnswerError(404, 'Order not found');

/**
 * The caller's order that `id` (numeric id or uuid) names, once processed. An order still
 * processing, another set's order and a malformed id all read as 404 "Order not found"; an
 * order whose creation failed reads as 404 with a message saying so.
 */
function findReadableOrder(
  store: OrderStore,
  userId: string,
  id: string | undefined,
  now: number,
): OrderRecord {
  if (id === undefined || !orderRefSchema.safeParse(id).success) throw notFound();
  const record = store.find(userId, id);
  if (record === undefined) throw notFound();
  const seen = visibility(record, now);
  if (seen === 'processing') throw notFound();
  if (seen === 'failed') {
    throw new ApiAnswerError(404, creationFailedMessage(record.failure ?? 'unknown reason'));
  }
  return record;
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;
const NUMERIC_KEYS = new Set(['limit', 'offset']);

/** The query string as the client's `listQuerySchema` takes it: numbers where numbers belong. */
function queryObject(raw: string): Record<string, unknown> {
  // No prototype: `__proto__` is a key like any other, which the schema refuses.
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(out, key)) {
      throw new ApiAnswerError(400, `Invalid list query: ${key} is given more than once`, {
        errors: [{ path: `query.${key}`, message: 'is given more than once' }],
      });
    }
    out[key] = NUMERIC_KEYS.has(key) && NUMBER.test(value) ? Number(value) : value;
  }
  return out;
}

/** Without a query: the vendor's defaults, and no parsing on the hot path. */
const FIRST_PAGE = { limit: LIST_LIMIT_MAX, offset: 0, status: undefined } as const;

/** `GET /orders`: one page (`limit` ≤ 50, `offset`, one `status`), newest first, with the full count. */
const listOrders: OperationHandler = ({ userId, query, now }, { store }) => {
  if (query === undefined || query === '') {
    return { status: 200, body: store.listJson(userId, FIRST_PAGE, now) };
  }
  const parsed = listQuerySchema.safeParse(queryObject(query));
  if (!parsed.success) {
    throw ApiAnswerError.invalid('Invalid list query', toFieldIssues(parsed.error.issues, ['query']));
  }
  const { limit = LIST_LIMIT_MAX, offset = 0, status } = parsed.data;
  return { status: 200, body: store.listJson(userId, { limit, offset, status }, now) };
};

/** `GET /orders/{id}`: the order by numeric id or uuid, from its cached JSON. */
const getOrder: OperationHandler = ({ userId, id, now }, { store }) => {
  const record = findReadableOrder(store, userId, id, now);
  return { status: 200, body: store.detailJson(record) };
};

/**
 * `POST /orders`: answers 201 `{uuid}` at once; the order becomes readable after the
 * processing delay, or fails processing then when a line names an unknown product.
 */
const createOrder: OperationHandler = ({ userId, version, body, now }, { store, processingDelayMs }) => {
  const order = buildOrder(store, body as CreateBody, version, now, processingDelayMs);
  store.add(userId, order);
  return jsonAnswer(201, { uuid: order.detail.uuid });
};

type LinePatch = Partial<RequestedLine>;

/** Line statuses that wait for new artwork: sending files puts the line back into processing. */
const WAITING_FOR_ARTWORK = new Set<OrderLine['status']>(['waiting-for-artwork', 'artwork-rejected']);

/** The product a line patch asks for, or undefined when it keeps the line's product. */
function patchedChoice(line: OrderLine, patch: LinePatch): ReturnType<typeof chooseLine> | undefined {
  if ('quoteLineItemId' in patch && patch.quoteLineItemId !== undefined) return chooseLine(patch);
  if ('productCode' in patch && patch.productCode !== undefined) return chooseLine(patch);
  if ('sku' in patch && patch.sku !== undefined) return chooseLine(patch);
  if ('attributes' in patch && patch.attributes !== undefined) {
    // New attributes (such as quantity) for the product the line already has.
    const current = productByCode(line.productCode);
    return current ? chooseLine({ sku: current.sku, attributes: patch.attributes }) : undefined;
  }
  return undefined;
}

/**
 * `PUT` or `POST /orders/{id}`: changes what the body sends (the whole create payload or a
 * part) and answers the order as it now is. `invoiceAddress`, `deliveryMethod`,
 * `paymentMethod` and a line's `externalId` are ignored, as the docs say they cannot change;
 * an order that can no longer be modified (in production, shipped, cancelled) is a 400;
 * lines change by position.
 */
const updateOrder: OperationHandler = ({ userId, id, body, now }, { store }) => {
  const record = findReadableOrder(store, userId, id, now);
  const order = record.detail;
  const reason = whyUnchangeable(order);
  if (reason !== undefined) {
    throw new ApiAnswerError(400, `Order ${order.number} can no longer change: ${reason}`);
  }
  const update = body as UpdateOrderV1 | UpdateOrderV2;
  const patches = (update.orderLines ?? []) as LinePatch[];
  // Check every line before changing anything, so a refused update changes nothing.
  const errors: FieldIssue[] = [];
  const choices = patches.map((patch, index) => {
    const line = order.lines[index];
    if (line === undefined) {
      errors.push({
        path: `orderLines[${index}]`,
        message: `does not exist: the order has ${order.lines.length} line(s) and an update changes lines by position`,
      });
      return undefined;
    }
    const choice = patchedChoice(line, patch);
    if (choice !== undefined && isUnknownProduct(choice)) {
      errors.push({ path: `orderLines[${index}].${choice.field}`, message: choice.reason });
      return undefined;
    }
    return choice;
  });
  if (errors.length > 0) throw ApiAnswerError.invalid('Invalid update', errors);

  if (update.deliveryAddress !== undefined) {
    const addressId = store.nextAddressId();
    order.deliveryAddress = addressId;
    for (const line of order.lines) line.addressInfo = addressId;
    record.shippingAddress = shippingAddressOf(update.deliveryAddress);
  }
  if (update.reference !== undefined) order.reference = update.reference;
  if (update.poNumber !== undefined) order.poNumber = update.poNumber;
  if (update.testOrder !== undefined) record.testOrder = update.testOrder;
  patches.forEach((patch, index) => {
    const line = order.lines[index] as OrderLine;
    const choice = choices[index];
    if (choice !== undefined) applyChoice(line, choice);
    if (patch.files !== undefined && WAITING_FOR_ARTWORK.has(line.status)) line.status = 'processing';
  });
  recomputeTotals(order);
  store.changed(record);
  return { status: 200, body: store.detailJson(record) };
};

const CANCELLED = JSON.stringify({ success: true });

/**
 * `DELETE /orders/{id}` with `{reason}`: `{success: true}`. Too late (in production, shipped,
 * completed) is the vendor's 500 "Cancel order failed". Cancelling a cancelled order
 * answers `{success: true}` again: the order is cancelled, which is what the caller asked.
 */
const cancelOrder: OperationHandler = ({ userId, id, body, now }, { store }) => {
  const record = findReadableOrder(store, userId, id, now);
  const outcome = cancelOutcome(record.detail);
  if (outcome === 'refused') throw new ApiAnswerError(500, CANCEL_REFUSED_MESSAGE);
  if (outcome === 'cancel') {
    cancel(record, (body as CancelOrder).reason);
    store.changed(record);
  }
  return { status: 200, body: CANCELLED };
};

/** One handler per operation of the client's table; PUT and POST updates share one. */
export const HANDLERS: Readonly<Record<OperationName, OperationHandler>> = {
  listOrders,
  getOrder,
  createOrder,
  updateOrder,
  updateOrderWithPost: updateOrder,
  cancelOrder,
};
