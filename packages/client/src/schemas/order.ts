import { z } from 'zod';
import { ORDER_LINE_STATUSES, ORDER_STATUSES } from '../vendor.js';

/** ISO 8601 date-time with a zone (`Z` or an offset), as the vendor writes order dates. */
export const ISO_DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** A calendar date, optionally with a time, as the vendor writes delivery dates. */
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const orderStatusSchema = z.enum(ORDER_STATUSES);
export const orderLineStatusSchema = z.enum(ORDER_LINE_STATUSES);

const dateTime = z.string().regex(ISO_DATE_TIME_PATTERN, 'expected an ISO 8601 date-time with a zone');
const date = z.string().regex(ISO_DATE_PATTERN, 'expected an ISO 8601 date');
const money = z.number();
const uuid = z.string().regex(UUID_PATTERN, 'expected a uuid');

/** One entry of `GET /orders`. */
export const orderSummarySchema = z.object({
  id: z.number().int(),
  number: z.string(),
  status: orderStatusSchema,
  date: dateTime,
  uuid: uuid.nullable(),
});

/** `GET /orders`: one page of the caller's orders and the total count. */
export const orderListSchema = z.object({
  count: z.number().int().nonnegative(),
  orders: z.array(orderSummarySchema),
});

export const shipmentSchema = z.object({
  labelName: z.string(),
  address: z.string(),
  shippingCost: money,
  trackAndTraceUrls: z.array(z.string()),
});

export const customerDiscountSchema = z.object({
  discountAmount: money,
  discountTaxAmount: money,
});

/** A line of an order as read back; its id is a number, or sometimes a string such as `"10004274-3"`. */
export const orderLineSchema = z.object({
  id: z.union([z.number().int(), z.string()]),
  description: z.string(),
  price: money,
  deliveryMethod: z.string(),
  deliveryDate: date,
  revisedDeliveryDate: date.nullable(),
  productCode: z.string(),
  beforeDelivery: z.string().nullable(),
  vatAmount: money,
  vatPercentage: z.number(),
  quantity: z.number().int(),
  addressInfo: z.union([z.string(), z.record(z.string(), z.unknown())]).nullable(),
  status: orderLineStatusSchema,
  shipmentInfo: z.array(shipmentSchema).nullable(),
  customerDiscount: customerDiscountSchema.nullable(),
  shippingCost: money,
  externalId: z.string().nullable(),
});

/** `GET /orders/{id}`: one order. `deliveryAddress` is an address id here, not an address. */
export const orderDetailSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  status: orderStatusSchema,
  date: dateTime,
  lines: z.array(orderLineSchema),
  deliveryAddress: z.number().int(),
  reference: z.string().nullable(),
  poNumber: z.string().nullable(),
  vatAmount: money,
  uuid: uuid.nullable(),
  total: money,
});

/** `POST /orders`: creation is asynchronous, so only the new order's uuid comes back. */
export const orderCreatedSchema = z.object({ uuid });

/** `DELETE /orders/{id}`. */
export const cancelResultSchema = z.object({ success: z.boolean() });

/** Any error answer; the vendor documents no format, so every field is optional. */
export const errorBodySchema = z.looseObject({
  message: z.string().optional(),
  error: z.string().optional(),
});

export type OrderSummary = z.infer<typeof orderSummarySchema>;
export type OrderList = z.infer<typeof orderListSchema>;
export type OrderLine = z.infer<typeof orderLineSchema>;
export type OrderDetail = z.infer<typeof orderDetailSchema>;
export type OrderCreated = z.infer<typeof orderCreatedSchema>;
export type CancelResult = z.infer<typeof cancelResultSchema>;
