import { z } from 'zod';
import {
  type ApiVersion,
  DELIVERY_METHODS,
  LIST_LIMIT_MAX,
  PO_NUMBER_MAX_LENGTH,
  REFERENCE_MAX_LENGTH,
  SHIPPING_COUNTRIES,
} from '../vendor.js';
import { orderStatusSchema, UUID_PATTERN } from './order.js';

const required = z.string().min(1, 'is required');
const notBlank = z.string().refine((value) => value.trim().length > 0, 'must not be blank');

/** Country codes are matched case-insensitively: the vendor's examples send them lower-case. */
export const countrySchema = z
  .string()
  .refine((value) => (SHIPPING_COUNTRIES as readonly string[]).includes(value.toUpperCase()), {
    error: `must be a country the vendor ships to: ${SHIPPING_COUNTRIES.join(', ')}`,
  });

export const addressSchema = z.strictObject({
  firstName: required,
  lastName: required,
  street: required,
  housenumber: notBlank,
  housenumberAddition: z.string().optional(),
  zipcode: required,
  city: required,
  country: countrySchema,
  company: z.string().optional(),
  email: z.email().optional(),
  extraAddress: z.string().optional(),
  vatId: z.string().optional(),
});

export const externalIdSchema = z
  .string()
  .min(1)
  .refine((value) => !value.includes('/'), 'must not contain "/"');

/**
 * A line carries at most one artwork file, a URL to a PDF. The docs' own create example has a
 * line without `files` (they can be added later through `POST /orderlines/{id}/files`).
 */
export const filesSchema = z.array(z.strictObject({ url: z.url() })).length(1, 'must hold exactly one file');

const lineExtras = { files: filesSchema.optional(), externalId: externalIdSchema.optional() };

/** A v1 line names its product by `productCode`. */
export const orderLineV1Schema = z.strictObject({ productCode: required, ...lineExtras });

export const attributeSchema = z.strictObject({ attribute: required, value: required });

/** A v2 line names a product category by `sku` and chooses the product with `attributes`. */
export const orderLineV2Schema = z.strictObject({
  sku: z.string().regex(UUID_PATTERN, 'must be a category uuid'),
  attributes: z.array(attributeSchema).min(1, 'must hold at least one attribute'),
  ...lineExtras,
});

/** A line ordered from a quote; the order then names the quote in `quoteId`. */
export const quoteOrderLineSchema = z.strictObject({
  quoteLineItemId: z.union([z.string().min(1), z.number().int()]),
  ...lineExtras,
});

const deliveryMethod = (version: ApiVersion) =>
  z
    .number()
    .int()
    .refine((id) => DELIVERY_METHODS[version].includes(id), {
      error: `must be a ${version} delivery method id: ${DELIVERY_METHODS[version].join(', ')}`,
    });

const atMost = (length: number) => z.string().max(length, `must be at most ${length} characters`).optional();

const lines = <T extends z.ZodType>(line: T) => z.array(line).min(1, 'must hold at least one line');

const orderFields = (version: ApiVersion) => ({
  invoiceAddress: addressSchema,
  deliveryAddress: addressSchema,
  deliveryMethod: deliveryMethod(version),
  reference: atMost(REFERENCE_MAX_LENGTH),
  poNumber: atMost(PO_NUMBER_MAX_LENGTH),
  testOrder: z.boolean().optional(),
});

export const createOrderV1Schema = z.strictObject({
  ...orderFields('v1'),
  orderLines: lines(orderLineV1Schema),
});

export const createOrderV2Schema = z
  .strictObject({
    ...orderFields('v2'),
    orderLines: lines(z.union([orderLineV2Schema, quoteOrderLineSchema])),
    quoteId: z.union([z.string().min(1), z.number().int()]).optional(),
  })
  .refine(
    (order) => order.quoteId !== undefined || !order.orderLines.some((line) => 'quoteLineItemId' in line),
    {
      error: 'is required when a line has a quoteLineItemId',
      path: ['quoteId'],
    },
  );

const atLeastOneField = (patch: object) => Object.values(patch).some((value) => value !== undefined);

/**
 * Fields of an update. The docs: send the whole create payload or only what changes;
 * `invoiceAddress`, `deliveryMethod` and a line's `externalId` cannot change, and a body that
 * carries them has the same result as one without them, so they are accepted (and ignored by
 * the vendor). `paymentMethod` appears in the docs' own update example, nowhere else.
 */
const updateFields = (version: ApiVersion) => {
  const { invoiceAddress, deliveryAddress, deliveryMethod, ...rest } = orderFields(version);
  return {
    ...rest,
    invoiceAddress: invoiceAddress.optional(),
    deliveryAddress: deliveryAddress.optional(),
    deliveryMethod: deliveryMethod.optional(),
    paymentMethod: z.number().int().optional(),
  };
};

/** An update sends the whole create payload or only the part that changes. */
export const updateOrderV1Schema = z
  .strictObject({
    ...updateFields('v1'),
    orderLines: z.array(orderLineV1Schema.partial()).min(1).optional(),
  })
  .refine(atLeastOneField, 'an update must change at least one field');

export const updateOrderV2Schema = z
  .strictObject({
    ...updateFields('v2'),
    orderLines: z
      .array(z.union([orderLineV2Schema.partial(), quoteOrderLineSchema.partial()]))
      .min(1)
      .optional(),
  })
  .refine(atLeastOneField, 'an update must change at least one field');

export const cancelOrderSchema = z.strictObject({ reason: notBlank });

/** Query of `GET /orders`. */
export const listQuerySchema = z.strictObject({
  limit: z.number().int().min(1).max(LIST_LIMIT_MAX, `must be at most ${LIST_LIMIT_MAX}`).optional(),
  offset: z.number().int().nonnegative().optional(),
  status: orderStatusSchema.optional(),
});

/** An order id as the path takes it: the numeric id or the uuid. */
export const orderRefSchema = z.union([
  z.number().int().positive(),
  z.string().regex(new RegExp(`^[1-9]\\d*$|${UUID_PATTERN.source}`), {
    error: 'must be a numeric order id or an order uuid',
  }),
]);

export type Address = z.input<typeof addressSchema>;
export type OrderLineV1Input = z.input<typeof orderLineV1Schema>;
export type OrderLineV2Input = z.input<typeof orderLineV2Schema>;
export type QuoteOrderLineInput = z.input<typeof quoteOrderLineSchema>;
export type CreateOrderV1 = z.input<typeof createOrderV1Schema>;
export type CreateOrderV2 = z.input<typeof createOrderV2Schema>;
export type UpdateOrderV1 = z.input<typeof updateOrderV1Schema>;
export type UpdateOrderV2 = z.input<typeof updateOrderV2Schema>;
export type CancelOrder = z.input<typeof cancelOrderSchema>;
export type ListQuery = z.input<typeof listQuerySchema>;
export type OrderRef = z.input<typeof orderRefSchema>;
