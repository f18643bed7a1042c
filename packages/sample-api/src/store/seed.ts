import { EXAMPLE_PRODUCTS, type OrderLineStatus, type OrderStatus } from '@print-contracts/client';
import { DOCUMENTED_SQUEEGEE, type Product, productByCode } from '../catalogue.js';
import { cents } from './amounts.js';
import { orderDetail } from './build-order.js';
import { addWorkingDays, daysBefore, isoDateTime } from './dates.js';
import { type LinePlacement, orderLine, priced } from './order-lines.js';
import type { NewOrder } from './order-record.js';
import { type ShippingAddress, shipmentOf } from './shipments.js';

interface SeedLine {
  readonly product: string;
  readonly quantity: number;
  readonly status: OrderLineStatus;
  /** The vendor sometimes sends line ids as strings such as "10004274-3". */
  readonly stringId?: boolean;
  readonly discountPercent?: number;
  /**
   * Parcels shipped, each with its own track-and-trace URL; 0 is a shipped line whose
   * shipment is not known yet (`shipmentInfo: []`, as in the docs' example).
   */
  readonly parcels?: number;
  readonly revisedDays?: number;
  /** `null` writes the key with a null value, as one line of the docs' example does. */
  readonly externalId?: string | null;
}

interface SeedOrder {
  readonly status: OrderStatus;
  readonly daysAgo: number;
  /** Position in `ADDRESSES`. */
  readonly address: number;
  readonly lines: readonly SeedLine[];
  /** Default true; old orders have none. */
  readonly uuid?: boolean;
  readonly reference?: string;
  readonly poNumber?: string;
  /** Default 1, home or work address. */
  readonly deliveryMethod?: 6 | 18 | 19;
  readonly testOrder?: boolean;
}

const line = (
  product: string,
  quantity: number,
  status: OrderLineStatus,
  extras: Omit<SeedLine, 'product' | 'quantity' | 'status'> = {},
): SeedLine => ({ product, quantity, status, ...extras });

const address = (
  labelName: string,
  street: string,
  houseNumber: string,
  houseNumberAddition: string | null,
  zipCode: string,
  city: string,
  country: string,
): ShippingAddress => ({ labelName, street, houseNumber, houseNumberAddition, zipCode, city, country });

/** 2024-05-13 10:00 in Amsterdam: seed dates are fixed so every run sees the same data. */
const SEED_NOW = Date.UTC(2024, 4, 13, 8, 0, 0);

const ADDRESSES: readonly ShippingAddress[] = [
  address('Jan de Vries', 'Keizersgracht', '123', null, '1015 CJ', 'Amsterdam', 'NL'),
  address('Drukkerij Peeters', 'Meir', '45', 'bus 2', '2000', 'Antwerpen', 'BE'),
  address('Sanne Bakker', 'Oudegracht', '8', 'A', '3511 AL', 'Utrecht', 'NL'),
  address('Lukas Schmidt', 'Hauptstraße', '17', null, '10115', 'Berlin', 'DE'),
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
    address: 0,
    lines: [
      line('flyers-a5-135g-gloss', 500, 'shipped', { discountPercent: 10, parcels: 2, revisedDays: 1 }),
      line('business-cards-85x55-350g-matt', 500, 'shipped', {
        stringId: true,
        parcels: 1,
        externalId: 'crm-7781',
      }),
    ],
  },
  {
    status: 'completed',
    daysAgo: 52,
    deliveryMethod: 6,
    address: 2,
    lines: [line('posters-a2-170g-silk', 25, 'shipped', { parcels: 1 })],
  },
  {
    status: 'cancelled',
    daysAgo: 45,
    reference: 'Cancelled reprint',
    address: 1,
    lines: [
      line('folders-a4-tri-fold-170g', 500, 'cancelled'),
      line('stickers-round-50mm-vinyl', 200, 'cancelled'),
    ],
  },
  {
    status: 'cancelled',
    daysAgo: 40,
    uuid: false,
    poNumber: 'PO-2024-0150',
    deliveryMethod: 18,
    address: 0,
    lines: [line('rollup-banner-85x200', 1, 'cancelled')],
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
    address: 3,
    lines: [
      line(EXAMPLE_PRODUCTS.v1ProductCode, 1, 'in-progress', { discountPercent: 7 }),
      line(DOCUMENTED_SQUEEGEE, 1000, 'shipped', { parcels: 1, discountPercent: 7, revisedDays: 4 }),
      line(DOCUMENTED_SQUEEGEE, 100, 'shipped', {
        parcels: 0,
        stringId: true,
        externalId: null,
        discountPercent: 7,
      }),
    ],
  },
  {
    status: 'unknown',
    daysAgo: 33,
    reference: 'Migrated order',
    address: 3,
    lines: [line('flyers-a5-135g-gloss', 250, 'processing', { stringId: true })],
  },
  {
    status: 'in-progress',
    daysAgo: 21,
    reference: 'Store opening',
    poNumber: 'PO-2024-0201',
    address: 0,
    lines: [
      line('posters-a2-170g-silk', 50, 'shipped', { stringId: true, parcels: 1 }),
      line('flyers-a5-135g-gloss', 1000, 'in-production', { stringId: true, discountPercent: 5 }),
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 14,
    reference: 'Trade show banners',
    deliveryMethod: 19,
    address: 1,
    lines: [line('rollup-banner-85x200', 2, 'in-production')],
  },
  {
    status: 'in-progress',
    daysAgo: 10,
    poNumber: 'PO-2024-0233',
    address: 2,
    lines: [
      line('business-cards-85x55-350g-matt', 1000, 'artwork-rejected'),
      line('stickers-round-50mm-vinyl', 100, 'waiting-for-artwork', { externalId: 'web-4410' }),
    ],
  },
  {
    status: 'in-progress',
    daysAgo: 7,
    reference: 'Newsletter insert',
    address: 3,
    lines: [line('folders-a4-tri-fold-170g', 1000, 'in-progress', { revisedDays: 2 })],
  },
  {
    status: 'in-progress',
    daysAgo: 4,
    reference: 'Summer campaign',
    poNumber: 'PO-2024-0260',
    address: 0,
    testOrder: true,
    lines: [
      line('flyers-a5-135g-gloss', 250, 'processing'),
      line('business-cards-85x55-350g-matt', 500, 'waiting-for-artwork', { discountPercent: 15 }),
    ],
  },
  {
    status: 'completed',
    daysAgo: 3,
    reference: 'Reprint business cards',
    address: 2,
    lines: [line('business-cards-85x55-350g-matt', 500, 'shipped', { parcels: 1 })],
  },
  {
    status: 'in-progress',
    daysAgo: 1,
    address: 1,
    lines: [line('stickers-round-50mm-vinyl', 100, 'processing')],
  },
];

/** How many orders each credential set starts with. */
export const SEED_ORDER_COUNT = SEED_ORDERS.length;

const hex = (value: number, width: number) => value.toString(16).padStart(width, '0');

/**
 * The sample orders of the credential set at `tenant` (its position in the list), oldest
 * first. Ids come in blocks per set, so they never repeat across sets.
 */
export function seedOrders(tenant: number): Pick<NewOrder, 'detail' | 'shippingAddress' | 'testOrder'>[] {
  return SEED_ORDERS.map((spec, index) => {
    const id = 1_000_001 + tenant * 100 + index;
    const shippingAddress = ADDRESSES[spec.address] as ShippingAddress;
    const placement: LinePlacement = {
      addressId: 4_100_000 + tenant * 10 + spec.address,
      deliveryMethod: spec.deliveryMethod ?? 1,
      orderedAt: daysBefore(SEED_NOW, spec.daysAgo) + index * 17 * 60_000,
    };
    const lines = spec.lines.map((seed, lineIndex) => {
      const product = productByCode(seed.product) as Product;
      const made = orderLine(priced(product, seed.quantity), placement, {
        id: seed.stringId
          ? `${10_004_000 + tenant * 100 + index}-${lineIndex + 1}`
          : 20_000_000 + tenant * 1000 + index * 10 + lineIndex,
        status: seed.status,
        first: lineIndex === 0,
        externalId: seed.externalId,
      });
      if (seed.revisedDays) {
        const delivery = addWorkingDays(placement.orderedAt, product.productionDays);
        made.revisedDeliveryDate = isoDateTime(addWorkingDays(delivery, seed.revisedDays));
      }
      if (seed.discountPercent) {
        made.customerDiscount = {
          discountAmount: cents((made.price * seed.discountPercent) / 100),
          discountTaxAmount: cents((made.price * seed.discountPercent * made.vatPercentage) / 10_000),
        };
      }
      if (seed.parcels !== undefined) {
        made.shipmentInfo = seed.parcels > 0 ? [shipmentOf(shippingAddress, made, seed.parcels)] : [];
      }
      return made;
    });
    const uuid = spec.uuid === false ? null : `5eed${hex(tenant, 4)}-0000-4000-8000-${hex(index + 1, 12)}`;
    const fields = {
      id,
      status: spec.status,
      lines,
      deliveryAddress: placement.addressId,
      reference: spec.reference ?? null,
      poNumber: spec.poNumber ?? null,
      uuid,
    };
    return {
      detail: orderDetail(fields, placement.orderedAt),
      shippingAddress,
      testOrder: spec.testOrder ?? false,
    };
  });
}
