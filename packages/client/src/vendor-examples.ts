/**
 * The example bodies of the vendor's own documentation for orders, as published in the public
 * repository `printdeal/printdeal-api-rst-docs` (commit named per example), including the
 * removed changing-orders page. They are the kit's ground truth for shapes: the client must
 * accept every answer here, the sample API must answer nothing the client would refuse, and the
 * contracts' matching rules must pass these answers. Copied verbatim (see each `note`); change
 * them only to follow the docs.
 */

/** Where an example comes from. */
interface VendorExampleSource {
  readonly repository: 'printdeal/printdeal-api-rst-docs';
  readonly commit: string;
  readonly path: string;
}

/** One documented example body. */
export interface VendorExample<T = unknown> {
  readonly title: string;
  readonly source: VendorExampleSource;
  /** How the body differs from the published text, or what the docs say about it. */
  readonly note: string | undefined;
  readonly body: T;
}

const source = (commit: string, path: string): VendorExampleSource => ({
  repository: 'printdeal/printdeal-api-rst-docs',
  commit,
  path,
});

/** The docs' newest commit (2024-12-13). */
const DOCS_HEAD = '7bcc9c84f86c9e97d0b2af5df7b3f54c496c048a';
/** The last commit before the changing-orders page was removed (2020-07-09). */
const BEFORE_CHANGING_ORDERS_REMOVED = 'fa93b789eb9d07615491d1c4600ebc85aa65091e';

/** Every documented orders example, by name. */
export const VENDOR_EXAMPLES = {
  orderList: {
    title: 'The answer of `GET /orders`.',
    source: source(DOCS_HEAD, 'docs/code_examples/Orders/Retrieving_your_orders/retrieving_your_orders.json'),
    note: undefined,
    body: {
      count: 2,
      orders: [
        {
          id: 1234567,
          number: 'DDB123457',
          status: 'cancelled',
          date: '2017-08-24T11:08:19+02:00',
          uuid: '347f6e49-952e-48ec-a49b-8bf528222012',
        },
        {
          id: 7654321,
          number: 'PBB7654321',
          status: 'in-progress',
          date: '2017-03-14T16:17:21+01:00',
          uuid: '66150572-e513-4284-bec2-9d87060ab894',
        },
      ],
    },
  },
  orderDetail: {
    title: 'The answer of `GET /orders/{id}`.',
    source: source(DOCS_HEAD, 'docs/code_examples/Orders/retrieving_order_information_data_format.json'),
    note: 'The published file is not valid JSON: its `trackAndTraceUrl` entries are written `{ "http://\u2026" }`; they are read here as the plain strings they stand for.',
    body: {
      id: 1234567,
      number: 'DDB1234567',
      status: 'in-progress',
      date: '2017-08-23T16:24:23+02:00',
      lines: [
        {
          id: 5178124,
          description: 'Accessoires buitenreclame, Spinhaken 25cm (10 stuks), 1 stuk',
          price: 100,
          deliveryMethod: 'Standard',
          deliveryDate: '2017-08-23T16:28:14+02:00',
          revisedDeliveryDate: '2017-08-29T16:28:14+02:00',
          productCode: 'CS:92.1-B:35.40.183.217.527.1256.1920.2009',
          beforeDelivery: null,
          vatAmount: 21,
          vatPercentage: 21,
          quantity: 1,
          addressInfo: 123456,
          status: 'in-progress',
          shipmentInfo: null,
          customerDiscount: { discountAmount: 7, discountTaxAmount: 1.47 },
          shippingCost: 0,
        },
        {
          id: 5178125,
          description: 'Accessoires buitenreclame, Rakel, 1 stuk',
          price: 104.75,
          deliveryMethod: 'Standard',
          deliveryDate: '2017-08-23T16:28:14+02:00',
          revisedDeliveryDate: '2017-08-29T16:28:14+02:00',
          productCode: 'CS:92.1-B:35.40.183.217.527.1255.1905.2009',
          beforeDelivery: null,
          vatAmount: 22,
          vatPercentage: 21,
          quantity: 1000,
          addressInfo: 123456,
          status: 'shipped',
          shipmentInfo: [
            {
              labelName: 'Your Name Here',
              street: 'Dorpsstraat',
              houseNumber: '123',
              houseNumberAddition: 'a',
              zipCode: '1234AB',
              city: 'City',
              country: 'NL',
              shippingCost: 0,
              trackAndTraceUrl: ['http://www.example.com/track-and-trace'],
            },
          ],
          customerDiscount: { discountAmount: 7.33, discountTaxAmount: 1.54 },
        },
        {
          id: '10004274-3',
          description: 'Hybrid merch name',
          price: 30.6,
          deliveryMethod: 'Standard',
          deliveryDate: '2020-09-07T00:00:00+02:00',
          revisedDeliveryDate: '2020-09-29T16:28:14+02:00',
          productCode: 'CS:92.1-B:35.40.183.217.527.1255.1905.2009',
          beforeDelivery: null,
          vatAmount: 6.43,
          vatPercentage: 21,
          quantity: 100,
          addressInfo: 1234,
          status: 'shipped',
          shipmentInfo: [],
          customerDiscount: { discountAmount: 2.14, discountTaxAmount: 0.45 },
          shippingCost: 0,
          externalId: null,
        },
      ],
      deliveryAddress: 13245,
      reference: 'reference',
      poNumber: 'poNumber',
      vatAmount: 45.97,
      uuid: null,
      total: 218.88,
    },
  },
  createOrder: {
    title: 'A v2 create request (`POST /orders`): `sku` + `attributes` lines, the second without `files`.',
    source: source(DOCS_HEAD, 'docs/code_examples/Orders/Creating_order/Create_order.json'),
    note: undefined,
    body: {
      orderLines: [
        {
          sku: '06fa88a1-18e3-42fc-bef7-21c0b2d44196',
          attributes: [
            { attribute: 'format', value: 'A4' },
            { attribute: 'material', value: 'woodfree coated mat mc' },
            { attribute: 'weight', value: '170 grs' },
            { attribute: 'printing colors', value: '4/0 full color' },
            { attribute: 'printing process', value: 'full color offset' },
            { attribute: 'quantity', value: '10000' },
            { attribute: 'delivery time', value: 'normal' },
            { attribute: 'finishing options', value: 'without luxury finishing' },
            { attribute: 'punchholes', value: '2 punchholes' },
            { attribute: 'bundling', value: 'bundling per 250' },
          ],
          files: [
            {
              url: 'https://s3-eu-west-1.amazonaws.com/printdealcdn/content_service/informatiesheet_cold-foil.pdf',
            },
          ],
        },
        {
          sku: 'dab96802-727c-4743-836d-8de5d8d7c60a',
          attributes: [
            { attribute: 'printing process', value: 'unprinted' },
            { attribute: 'quantity', value: '1' },
            { attribute: 'delivery time', value: 'normal' },
            { attribute: 'accessories', value: 'squeegee (rakel)' },
          ],
        },
      ],
      invoiceAddress: {
        company: 'Bedrijfsnaam',
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        email: 'Voornaam@gmail.com',
        street: 'Dorpsstraat',
        housenumber: '123',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryAddress: {
        company: 'Bedrijfsnaam',
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        housenumberAddition: 'A',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryMethod: 1,
      reference: 'reference-1234',
      poNumber: 'poNumber',
    },
  },
  createQuoteOrder: {
    title: 'A create request for an order from a quote.',
    source: source(DOCS_HEAD, 'docs/code_examples/Orders/Creating_quote_order/Create_quote_order.json'),
    note: undefined,
    body: {
      orderLines: [
        {
          quoteLineItemId: '6ca49923-79ba-4513-b0f3-f84517bfa6a4',
          files: [
            {
              url: 'https://s3-eu-west-1.amazonaws.com/printdealcdn/content_service/informatiesheet_cold-foil.pdf',
            },
          ],
        },
        {
          quoteLineItemId: '4ca49923-79ba-4513-b0f3-f84517bfa6a4',
          files: [
            {
              url: 'https://s3-eu-west-1.amazonaws.com/printdealcdn/content_service/informatiesheet_cold-foil.pdf',
            },
          ],
        },
      ],
      quoteId: '1ca49923-79ba-4513-b0f3-f84517bfa6a4',
      invoiceAddress: {
        company: 'Bedrijfsnaam',
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        email: 'Voornaam@gmail.com',
        street: 'Dorpsstraat',
        housenumber: '123',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryAddress: {
        company: 'Bedrijfsnaam',
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        housenumberAddition: 'A',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryMethod: 1,
      reference: 'reference-1234',
      poNumber: 'poNumber',
    },
  },
  addresses: {
    title: 'An invoice and a delivery address, with every optional field.',
    source: source(DOCS_HEAD, 'docs/code_examples/Orders/Creating_order/Addresses.json'),
    note: undefined,
    body: {
      invoiceAddress: {
        company: 'Bedrijfsnaam',
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        email: 'Voornaam@gmail.com',
        street: 'Dorpsstraat',
        housenumber: '123',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
        extraAddress: 'optional',
        vatId: 'NL819555514B01',
      },
      deliveryAddress: {
        company: 'Bedrijfsnaam',
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        housenumberAddition: 'A',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
        extraAddress: 'optional',
      },
    },
  },
  orderCreated: {
    title: 'The answer of `POST /orders`: creation is asynchronous.',
    source: source(DOCS_HEAD, 'docs/Orders/Creating_order.rst'),
    note: undefined,
    body: { uuid: 'fea079fc-2f77-4223-9d5f-10254bb48717' },
  },
  cancelOrder: {
    title: 'The body of `DELETE /orders/{id}`.',
    source: source(DOCS_HEAD, 'docs/Orders/Cancelling_an_order.rst'),
    note: undefined,
    body: { reason: 'Insert reason here' },
  },
  orderCancelled: {
    title: 'The answer of a successful cancel.',
    source: source(DOCS_HEAD, 'docs/Orders/Cancelling_an_order.rst'),
    note: undefined,
    body: { success: true },
  },
  updatePartial: {
    title: 'An update (`PUT` or `POST /orders/{id}`) that sends only what changes.',
    source: source(BEFORE_CHANGING_ORDERS_REMOVED, 'docs/Orders/Changing_orders.rst'),
    note: 'Page removed from the docs on 2020-07-09 (commit 332e969). It says this body "will have the same result" as `updateWhole`.',
    body: {
      deliveryAddress: {
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        housenumberAddition: 'A',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
    },
  },
  updateWhole: {
    title:
      'An update that sends the whole payload, `invoiceAddress` and `deliveryMethod` included: the vendor ignores those two.',
    source: source(BEFORE_CHANGING_ORDERS_REMOVED, 'docs/Orders/Changing_orders.rst'),
    note: 'Page removed from the docs on 2020-07-09 (commit 332e969).',
    body: {
      invoiceAddress: {
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Keulenstraat',
        housenumber: '4',
        zipcode: '7418 ET',
        city: 'Deventer',
        country: 'nl',
      },
      deliveryAddress: {
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        housenumberAddition: 'A',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryMethod: 1,
      reference: 'reference-1234',
      poNumber: 'poNumber',
    },
  },
  updateRequestExample: {
    title: 'The body of the PHP example of the changing-orders page.',
    source: source(
      BEFORE_CHANGING_ORDERS_REMOVED,
      'docs/code_examples/Orders/Changing_orders/changing_orders.php',
    ),
    note: 'Removed with its page on 2020-07-09; it sends a `paymentMethod` the docs describe nowhere else.',
    body: {
      invoiceAddress: {
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryAddress: {
        firstName: 'Voornaam',
        lastName: 'Achternaam',
        street: 'Dorpsstraat',
        housenumber: '123',
        housenumberAddition: 'A',
        zipcode: '1234AB',
        city: 'Dorp',
        country: 'nl',
      },
      deliveryMethod: 1,
      paymentMethod: 1,
      reference: 'reference-1234',
      poNumber: 'poNumber',
    },
  },
} as const satisfies Record<string, VendorExample>;

export type VendorExampleName = keyof typeof VENDOR_EXAMPLES;

/** `T` with every `readonly` removed, at any depth (tuples stay tuples). */
type Writable<T> = T extends object ? { -readonly [K in keyof T]: Writable<T[K]> } : T;

/** A fresh copy of a documented body, typed to be sent or changed. */
export function documentedBody<N extends VendorExampleName>(
  name: N,
): Writable<(typeof VENDOR_EXAMPLES)[N]['body']> {
  return structuredClone(VENDOR_EXAMPLES[name].body) as Writable<(typeof VENDOR_EXAMPLES)[N]['body']>;
}
