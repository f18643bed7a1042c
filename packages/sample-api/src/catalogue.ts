import { EXAMPLE_PRODUCTS } from '@print-contracts/client';
import { VENDOR_EXAMPLES } from '@print-contracts/client/kit';

/** A product the simulator sells: v1 orders name it by `productCode`, v2 orders by `sku`. */
export interface Product {
  readonly productCode: string;
  /** The v2 category uuid. */
  readonly sku: string;
  readonly description: string;
  /** Price excluding VAT for `defaultQuantity` pieces, in euro. */
  readonly price: number;
  readonly defaultQuantity: number;
  readonly vatPercentage: number;
  /** Working days from order to delivery. */
  readonly productionDays: number;
}

/** The lines of the docs' order example: the spinhook and the squeegee the docs order. */
const [spinhook, squeegee] = VENDOR_EXAMPLES.orderDetail.body.lines;

/** The product code of the squeegee the docs' order example and create example both order. */
export const DOCUMENTED_SQUEEGEE = squeegee.productCode;

type DocumentedLine = Pick<Product, 'description' | 'price' | 'vatPercentage'> & { quantity: number };

/** A product as a line of the docs shows it; the docs write its description with its unit (`…, 1 stuk`). */
const documented = (
  line: DocumentedLine,
  productCode: string,
  sku: string,
  productionDays: number,
): Product => ({
  productCode,
  sku,
  description: line.description.replace(/, 1 stuk$/, ''),
  price: line.price,
  defaultQuantity: line.quantity,
  vatPercentage: line.vatPercentage,
  productionDays,
});

/**
 * What the simulator sells. First the products the vendor's documentation orders and shows
 * (the client's example products among them, so the kit's examples and contracts order
 * something real here), then a few more; anything else fails processing. The docs pair no
 * v1 product code with a v2 sku: where they give only one, the other is the simulator's own.
 */
export const CATALOGUE: readonly Product[] = [
  documented(spinhook, EXAMPLE_PRODUCTS.v1ProductCode, '7a1c2e3f-4b5d-4c6e-8f70-91a2b3c4d5e6', 3),
  {
    productCode: 'CS:12.1-B:7.31.55.105.1301.2009',
    sku: EXAMPLE_PRODUCTS.v2Sku,
    description: 'Flyers A4, 170 grs woodfree coated mat mc, 4/0 full color',
    price: 289,
    defaultQuantity: 10_000,
    vatPercentage: 21,
    productionDays: 4,
  },
  documented(squeegee, DOCUMENTED_SQUEEGEE, VENDOR_EXAMPLES.createOrder.body.orderLines[1].sku, 2),
  {
    productCode: 'flyers-a5-135g-gloss',
    sku: '1f2a3b4c-5d6e-4f70-8a91-b2c3d4e5f601',
    description: 'Flyers A5, 135 g glossy paper, double-sided',
    price: 42.5,
    defaultQuantity: 250,
    vatPercentage: 21,
    productionDays: 3,
  },
  {
    productCode: 'business-cards-85x55-350g-matt',
    sku: '2a3b4c5d-6e7f-4a81-9b02-c3d4e5f60712',
    description: 'Business cards 85 x 55 mm, 350 g matt',
    price: 24.95,
    defaultQuantity: 500,
    vatPercentage: 21,
    productionDays: 2,
  },
  {
    productCode: 'posters-a2-170g-silk',
    sku: '3b4c5d6e-7f80-4b92-8c13-d4e5f6071823',
    description: 'Posters A2, 170 g silk',
    price: 61.2,
    defaultQuantity: 25,
    vatPercentage: 21,
    productionDays: 4,
  },
  {
    productCode: 'folders-a4-tri-fold-170g',
    sku: '4c5d6e7f-8091-4ca3-9d24-e5f607182934',
    description: 'Folders A4, tri-fold, 170 g silk',
    price: 118,
    defaultQuantity: 500,
    vatPercentage: 21,
    productionDays: 5,
  },
  {
    productCode: 'stickers-round-50mm-vinyl',
    sku: '5d6e7f80-91a2-4db4-8e35-f60718293a45',
    description: 'Stickers, round 50 mm, white vinyl',
    price: 33.75,
    defaultQuantity: 100,
    vatPercentage: 21,
    productionDays: 3,
  },
  {
    productCode: 'rollup-banner-85x200',
    sku: '6e7f8091-a2b3-4ec5-9f46-0718293a4b56',
    description: 'Roll-up banner 85 x 200 cm with cassette',
    price: 79,
    defaultQuantity: 1,
    vatPercentage: 21,
    productionDays: 5,
  },
];

const BY_CODE = new Map(CATALOGUE.map((product) => [product.productCode, product]));
const BY_SKU = new Map(CATALOGUE.map((product) => [product.sku.toLowerCase(), product]));

/** The product a v1 line names, if the simulator sells it. */
export const productByCode = (productCode: string): Product | undefined => BY_CODE.get(productCode);
/** The product a v2 line names, if the simulator sells it. */
export const productBySku = (sku: string): Product | undefined => BY_SKU.get(sku.toLowerCase());

/** What a quote line costs: quotes are priced by the vendor's sales team, so any id is accepted. */
export const QUOTE_LINE_PRICE = 149;

/** How order lines describe each delivery method id (the vendor names them in text when read back). */
export const DELIVERY_METHOD_NAMES: Readonly<Record<number, string>> = {
  1: 'Home or work address',
  6: 'Pick-up point (PostNL)',
  18: 'Pick-up point (DHL ServicePoint)',
  19: 'Pick-up point (DPD Pickup)',
};

/** Shipping cost per order, by delivery method: pick-up points are cheaper. */
export const shippingCostFor = (deliveryMethod: number): number => (deliveryMethod === 1 ? 6.95 : 3.95);

/**
 * The catalogue as lines of text, for the start-up greeting and the README: what to put in
 * a v1 line's `productCode` or a v2 line's `sku`.
 */
export function describeCatalogue(): string[] {
  return CATALOGUE.map((product) => `  ${product.productCode}  sku ${product.sku}  ${product.description}`);
}
