import { z } from 'zod';
import { ORDER_LINE_STATUSES, ORDER_STATUSES } from '../vendor.js';

/** ISO 8601 date-time with a zone (`Z` or an offset), as the vendor writes order dates. */
export const ISO_DATE_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** A calendar date, or a date-time as the docs write delivery dates (`2017-08-23T16:28:14+02:00`). */
export const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}([T ][0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export const orderStatusSchema = z.enum(ORDER_STATUSES);
export const orderLineStatusSchema = z.enum(ORDER_LINE_STATUSES);

const dateTime = z.string().regex(ISO_DATE_TIME_PATTERN, 'expected an ISO 8601 date-time with a zone');
const date = z.string().regex(ISO_DATE_PATTERN, 'expected an ISO 8601 date');
const money = z.number();
const uuid = z.string().regex(UUID_PATTERN, 'expected a uuid');

/** One entry of `GET /orders`. */
export const orderSummarySchema = z.looseObject({
  id: z.number().int(),
  number: z.string(),
  status: orderStatusSchema,
  date: dateTime,
  uuid: uuid.nullable(),
});

/** `GET /orders`: one page of the caller's orders and the total count. */
export const orderListSchema = z.looseObject({
  count: z.number().int().nonnegative(),
  orders: z.array(orderSummarySchema),
});

/**
 * An address as an order answer refers to it. The docs show an integer (an address id); the
 * kit also reads a string, an object or null, so a vendor that inlines the address is no alarm.
 */
export const addressRefSchema = z
  .union([z.number().int(), z.string(), z.record(z.string(), z.unknown())])
  .nullable();

/**
 * A field the docs show on some entries only, which no pact can pin (Pact cannot say "optional,
 * and typed when present") and nothing of the kit reads: typed when it is as documented, left
 * out (undefined) when the vendor sends something else, rather than failing the whole answer
 * the contract passed.
 */
const optionalTyped = <T extends z.ZodType>(schema: T) => schema.nullish().catch(undefined);

const text = optionalTyped(z.string());

/**
 * One shipment of a line, as the docs show it. Only `trackAndTraceUrl` is what a user reads
 * for certain (the contracts pin it); the address fields and the cost are typed when they are as
 * documented. An entry without URLs reads as an empty list.
 */
export const shipmentSchema = z.looseObject({
  labelName: text,
  street: text,
  houseNumber: text,
  houseNumberAddition: text,
  zipCode: text,
  city: text,
  country: text,
  shippingCost: optionalTyped(money),
  trackAndTraceUrl: z
    .array(z.string())
    .nullish()
    .transform((urls) => urls ?? []),
});

export const customerDiscountSchema = z.looseObject({
  discountAmount: money,
  discountTaxAmount: money,
});

/**
 * A line of an order as read back (tolerant reader): every field the docs show on every line
 * is required, with each variation they show (ids as numbers or strings such as
 * `"10004274-3"`, delivery dates with or without a time, `shipmentInfo` null, `[]` or
 * entries); `shippingCost` and `externalId`, absent from some documented lines, are optional
 * and typed only when they are as documented, and `beforeDelivery`, only ever shown as null, is
 * not typed.
 */
export const orderLineSchema = z.looseObject({
  id: z.union([z.number().int(), z.string()]),
  description: z.string(),
  price: money,
  deliveryMethod: z.string(),
  deliveryDate: date,
  revisedDeliveryDate: date.nullable(),
  productCode: z.string(),
  beforeDelivery: z.unknown().optional(),
  vatAmount: money,
  vatPercentage: z.number(),
  quantity: z.number().int(),
  addressInfo: addressRefSchema,
  status: orderLineStatusSchema,
  shipmentInfo: z.array(shipmentSchema).nullable(),
  customerDiscount: customerDiscountSchema.nullable(),
  shippingCost: optionalTyped(money),
  externalId: optionalTyped(z.string()),
});

/**
 * `GET /orders/{id}`: one order, shaped unlike the create payload (`deliveryAddress` is an
 * address id). `vatAmount` includes VAT on shipping and payment costs, so it is not the sum of
 * the lines' VAT; `uuid` is null for old orders.
 */
export const orderDetailSchema = z.looseObject({
  id: z.number().int(),
  number: z.string(),
  status: orderStatusSchema,
  date: dateTime,
  lines: z.array(orderLineSchema),
  deliveryAddress: addressRefSchema,
  reference: z.string().nullable(),
  poNumber: z.string().nullable(),
  vatAmount: money,
  uuid: uuid.nullable(),
  total: money,
});

/**
 * What an update (`PUT` or `POST /orders/{id}`) answers: the vendor documents nothing, so the
 * client reads no shape into it; read the order back with `getOrder` to see the change.
 */
export const updateResultSchema = z.unknown();

/** `POST /orders`: creation is asynchronous, so only the new order's uuid comes back. */
export const orderCreatedSchema = z.looseObject({ uuid });

/** `DELETE /orders/{id}`: the docs show `{ "success": true }`. */
export const cancelResultSchema = z.looseObject({ success: z.boolean() });

export type OrderSummary = z.infer<typeof orderSummarySchema>;
export type OrderList = z.infer<typeof orderListSchema>;
export type OrderLine = z.infer<typeof orderLineSchema>;
export type OrderDetail = z.infer<typeof orderDetailSchema>;
export type Shipment = z.infer<typeof shipmentSchema>;
export type OrderCreated = z.infer<typeof orderCreatedSchema>;
export type CancelResult = z.infer<typeof cancelResultSchema>;
