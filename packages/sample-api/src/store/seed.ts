import {
  EXAMPLE_PRODUCTS,
  type OrderDetail,
  type OrderLine,
  type OrderLineStatus,
  type OrderStatus,
} from '@print-contracts/client';
import {
  DELIVERY_METHOD_NAMES,
  DOCUMENTED_SQUEEGEE,
  type Product,
  productByCode,
  shippingCostFor,
} from '../catalogue.js';
import { cents, lineVat, recomputeTotals } from './amounts.js';
import { addWorkingDays, daysBefore, isoDateTime } from './dates.js';
import { type ShippingAddress, shipmentOf } from './shipments.js';

interface SeedLine {
  product: string;
  quantity: number;
  status: OrderLineStatus;
  /** The vendor sometimes sends line ids as strings such as "10004274-3". */
  stringId?: boolean;
  discountPercent?: number;
  /**
   * Parcels shipped, each with its own track-and-trace URL; 0 is a shipped line whose
   * shipment is not known yet (`shipmentInfo: []`, as in the docs' example).
   */
  parcels?: number;
  revisedDays?: number;
  /** `null` writes the key with a null value, as one line of the docs' example does. */
  externalId?: string | null;
}

interface SeedOrder {
  status: OrderStatus;
  daysAgo: number;
  uuid: boolean;
  reference: string | null;
  poNumber: string | null;
  deliveryMethod: 1 | 6 | 18 | 19;
  address: number;
  testOrder?: boolean;
  lines: SeedLine[];
}

/** 2024-05-13 10:00 in Amsterdam: seed dates are fixed so every run sees the same data. */
const SEED_NOW = Date.UTC(2024, 4, 13, 8, 0, 0);

const ADDRESSES: readonly ShippingAddress[] = [
  {
    labelName: 'Jan de Vries',
    street: 'Keizersgracht',
    houseNumber: '123',
    houseNumberAddition: null,
    zipCode: '1015 CJ',
    city: 'Amsterdam',
    country: 'NL',
  },
  {
    labelName: 'Drukkerij Peeters',
    street: 'Meir',
    houseNumber: '45',
    houseNumberAddition: 'bus 2',
    zipCode: '2000',
    city: 'Antwerpen',
    country: 'BE',
  },
  {
    labelName: 'Sanne Bakker',
    street: 'Oudegracht',
    houseNumber: '8',
    houseNumberAddition: 'A',
    zipCode: '3511 AL',
    city: 'Utrecht',
    country: 'NL',
  },
  {
    labelName: 'Lukas Schmidt',
    street: 'Hauptstraße',
    houseNumber: '17',
    houseNumberAddition: null,
    zipCode: '10115',
    city: 'Berlin',
    country: 'DE',
  },
];

/**
 * Every order status and every line status, partial shipments, discounts, string line ids,
 * orders without uuid and null optional fields: what the vendor's sample data shows.
 * Oldest first.
 */
const SEED_ORDERS: readonly SeedOrder[] = [
  {
    status: 'completed',
    daysAgo: 60,
    uuid: false,
    reference: 'Spring fair 2024',
    poNumber: 'PO-2024-0113',
    deliveryMethod: 1,
    address: 0,
    lines: [
      {
        product: 'flyers-a5-135g-gloss',
        quantity: 500,
        status: 'shipped',
        discountPercent: 10,
        parcels: 2,
        revisedDays: 1,
      },
      {
        product: 'business-cards-85x55-350g-matt',
        quantity: 500,
        status: 'shipped',
        stringId: true,
        parcels: 1,
        externalId: 'crm-7781',
      },
    ],
  },
  {
    status: 'completed',
    daysAgo: 52,
    uuid: true,
    reference: null,
    poNumber: null,
    deliveryMethod: 6,
    address: 2,
    lines: [{ product: 'posters-a2-170g-silk', quantity: 25, status: 'shipped', parcels: 1 }],
  },
  {
    status: 'cancelled',
    daysAgo: 45,
    uuid: true,
    reference: 'Cancelled reprint',
    poNumber: null,
    deliveryMethod: 1,
    address: 1,
    lines: [
      { product: 'folders-a4-tri-fold-170g', quantity: 500, status: 'cancelled' },
      { product: 'stickers-round-50mm-vinyl', quantity: 200, status: 'cancelled' },
    ],
  },
  {
    status: 'cancelled',
    daysAgo: 40,
    uuid: false,
    reference: null,
    poNumber: 'PO-2024-0150',
    deliveryMethod: 18,
    address: 0,
    lines: [{ product: 'rollup-banner-85x200', quantity: 1, status: 'cancelled' }],
  },
  {
    // Shaped like the docs' order example: no uuid (an old order), a discounted line still in
    // progress, a shipped line with track-and-trace, and a shipped line whose shipment is not
    // known yet, with a string id and an `externalId` of null.
    status: 'in-progress',
    daysAgo: 36,
    uuid: false,
    reference: 'reference',
    poNumber: 'poNumber',
    deliveryMethod: 1,
    address: 3,
    lines: [
      { product: EXAMPLE_PRODUCTS.v1ProductCode, quantity: 1, status: 'in-progress', discountPercent: 7 },
      {
        product: DOCUMENTED_SQUEEGEE,
        quantity: 1000,
        status: 'shipped',
        parcels: 1,
        discountPercent: 7,
        revisedDays: 4,
      },
      {
        product: DOCUMENTED_SQUEEGEE,
        quantity: 100,
        status: 'shipped',
        parcels: 0,
        stringId: true,
        externalId: null,
        discountPercent: 7,
      },
    ],
  },
  {
    status: 'unknown',
    daysAgo: 33,
    uuid: true,
    reference: 'Migrated order',
    poNumber: null,
    deliveryMethod: 1,
    address: 3,
    lines: [
      {
        product: 'flyers-a5-135g-gloss',
        quantity: 250,
        status: 'processing',
        stringId: true,
      },
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 21,
    uuid: true,
    reference: 'Store opening',
    poNumber: 'PO-2024-0201',
    deliveryMethod: 1,
    address: 0,
    lines: [
      { product: 'posters-a2-170g-silk', quantity: 50, status: 'shipped', stringId: true, parcels: 1 },
      {
        product: 'flyers-a5-135g-gloss',
        quantity: 1000,
        status: 'in-production',
        stringId: true,
        discountPercent: 5,
      },
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 14,
    uuid: true,
    reference: 'Trade show banners',
    poNumber: null,
    deliveryMethod: 19,
    address: 1,
    lines: [
      {
        product: 'rollup-banner-85x200',
        quantity: 2,
        status: 'in-production',
      },
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 10,
    uuid: true,
    reference: null,
    poNumber: 'PO-2024-0233',
    deliveryMethod: 1,
    address: 2,
    lines: [
      { product: 'business-cards-85x55-350g-matt', quantity: 1000, status: 'artwork-rejected' },
      {
        product: 'stickers-round-50mm-vinyl',
        quantity: 100,
        status: 'waiting-for-artwork',
        externalId: 'web-4410',
      },
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 7,
    uuid: true,
    reference: 'Newsletter insert',
    poNumber: null,
    deliveryMethod: 1,
    address: 3,
    lines: [{ product: 'folders-a4-tri-fold-170g', quantity: 1000, status: 'in-progress', revisedDays: 2 }],
  },
  {
    status: 'in-progress',
    daysAgo: 4,
    uuid: true,
    reference: 'Summer campaign',
    poNumber: 'PO-2024-0260',
    deliveryMethod: 1,
    address: 0,
    testOrder: true,
    lines: [
      { product: 'flyers-a5-135g-gloss', quantity: 250, status: 'processing' },
      {
        product: 'business-cards-85x55-350g-matt',
        quantity: 500,
        status: 'waiting-for-artwork',
        discountPercent: 15,
      },
    ],
  },
  {
    status: 'completed',
    daysAgo: 3,
    uuid: true,
    reference: 'Reprint business cards',
    poNumber: null,
    deliveryMethod: 1,
    address: 2,
    lines: [
      {
        product: 'business-cards-85x55-350g-matt',
        quantity: 500,
        status: 'shipped',
        parcels: 1,
      },
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 1,
    uuid: true,
    reference: null,
    poNumber: null,
    deliveryMethod: 1,
    address: 1,
    lines: [{ product: 'stickers-round-50mm-vinyl', quantity: 100, status: 'processing' }],
  },
];

/** How many orders each credential set starts with. */
export const SEED_ORDER_COUNT = SEED_ORDERS.length;

/** Seed order ids: per set a block of 100, so ids never repeat across sets. */
const seedOrderId = (tenant: number, index: number) => 1_000_001 + tenant * 100 + index;

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

function seedLine(
  spec: SeedLine,
  ids: { line: number | string; address: number },
  order: SeedOrder,
  orderMs: number,
  first: boolean,
): OrderLine {
  const product = productByCode(spec.product) as Product;
  const address = ADDRESSES[order.address] ?? (ADDRESSES[0] as ShippingAddress);
  const price = cents((product.price * spec.quantity) / product.defaultQuantity);
  const deliveryMs = addWorkingDays(orderMs, product.productionDays);
  const discount = spec.discountPercent
    ? {
        discountAmount: cents((price * spec.discountPercent) / 100),
        discountTaxAmount: cents((price * spec.discountPercent * product.vatPercentage) / 10_000),
      }
    : null;
  const line: OrderLine = {
    id: ids.line,
    description: `${product.description}, ${spec.quantity} pieces`,
    price,
    deliveryMethod: DELIVERY_METHOD_NAMES[order.deliveryMethod] ?? 'Home or work address',
    deliveryDate: isoDateTime(deliveryMs),
    revisedDeliveryDate: spec.revisedDays ? isoDateTime(addWorkingDays(deliveryMs, spec.revisedDays)) : null,
    productCode: product.productCode,
    beforeDelivery: null,
    vatAmount: lineVat({ price, vatPercentage: product.vatPercentage }),
    vatPercentage: product.vatPercentage,
    quantity: spec.quantity,
    addressInfo: ids.address,
    status: spec.status,
    shipmentInfo: null,
    customerDiscount: discount,
    // The order's shipping cost sits on its first line; the docs show a line without the key.
    ...(first ? { shippingCost: shippingCostFor(order.deliveryMethod) } : {}),
    ...(spec.externalId === undefined ? {} : { externalId: spec.externalId }),
  };
  if (spec.parcels !== undefined) {
    line.shipmentInfo = spec.parcels > 0 ? [shipmentOf(address, line, spec.parcels)] : [];
  }
  return line;
}

export interface SeededOrder {
  readonly detail: OrderDetail;
  readonly shippingAddress: ShippingAddress;
  readonly testOrder: boolean;
}

/** The sample orders of the credential set at `tenant` (its position in the list), oldest first. */
export function seedOrders(tenant: number): SeededOrder[] {
  return SEED_ORDERS.map((spec, index) => {
    const id = seedOrderId(tenant, index);
    const orderMs = daysBefore(SEED_NOW, spec.daysAgo) + index * 17 * 60_000;
    const addressId = 4_100_000 + tenant * 10 + spec.address;
    const lines = spec.lines.map((line, lineIndex) => {
      const lineId = line.stringId
        ? `${10_004_000 + tenant * 100 + index}-${lineIndex + 1}`
        : 20_000_000 + tenant * 1000 + index * 10 + lineIndex;
      return seedLine(line, { line: lineId, address: addressId }, spec, orderMs, lineIndex === 0);
    });
    const detail: OrderDetail = {
      id,
      number: `DDB${id}`,
      status: spec.status,
      date: isoDateTime(orderMs),
      lines,
      deliveryAddress: addressId,
      reference: spec.reference,
      poNumber: spec.poNumber,
      vatAmount: 0,
      uuid: spec.uuid ? `5eed${hex(tenant, 4)}-0000-4000-8000-${hex(index + 1, 12)}` : null,
      total: 0,
    };
    recomputeTotals(detail);
    return {
      detail,
      shippingAddress: ADDRESSES[spec.address] ?? (ADDRESSES[0] as ShippingAddress),
      testOrder: spec.testOrder ?? false,
    };
  });
}
