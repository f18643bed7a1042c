import type { FieldIssue, OrderLine, UpdateOrderV1, UpdateOrderV2 } from '@print-contracts/client';
import { productByCode } from '../catalogue.js';
import { ApiAnswerError } from '../errors/api-answer-error.js';
import { recomputeTotals } from '../store/amounts.js';
import { whyUnchangeable } from '../store/order-lifecycle.js';
import { applyChoice, chooseLine, isUnknownProduct, type RequestedLine } from '../store/order-lines.js';
import { shippingAddressOf } from '../store/shipments.js';
import type { OperationHandler } from './context.js';
import { findReadableOrder } from './find-order.js';
import { describeIssues } from './issues.js';

type UpdateBody = UpdateOrderV1 | UpdateOrderV2;
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
export const updateOrder: OperationHandler = ({ userId, id, body, now }, { store }) => {
  const record = findReadableOrder(store, userId, id, now);
  const order = record.detail;
  const reason = whyUnchangeable(order);
  if (reason !== undefined) {
    throw new ApiAnswerError(400, `Order ${order.number} can no longer change: ${reason}`);
  }
  const update = body as UpdateBody;
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
  if (errors.length > 0)
    throw new ApiAnswerError(400, `Invalid update: ${describeIssues(errors)}`, { errors });

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
