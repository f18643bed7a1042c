import { type ApiVersion, PO_NUMBER_MAX_LENGTH, REFERENCE_MAX_LENGTH } from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADDRESS, orderFor, V1_LINE, V2_LINE, VERSIONS } from './helpers/orders.js';
import { JSON_BODY, startTestApi, type TestApi } from './helpers/sample-api.js';

interface Case {
  name: string;
  body: (version: ApiVersion) => unknown;
  /** The `errors[].path` the refusal must name. */
  path: string;
  only?: ApiVersion;
}

const line = (version: ApiVersion, extra: Record<string, unknown> = {}) =>
  version === 'v1' ? { ...V1_LINE, ...extra } : { ...V2_LINE, ...extra };
const without = (version: ApiVersion, field: string) => {
  const body = orderFor(version);
  delete body[field];
  return body;
};

const CREATE_CASES: Case[] = [
  { name: 'orderLines missing', body: (v) => without(v, 'orderLines'), path: 'orderLines' },
  { name: 'orderLines empty', body: (v) => orderFor(v, { orderLines: [] }), path: 'orderLines' },
  { name: 'invoiceAddress missing', body: (v) => without(v, 'invoiceAddress'), path: 'invoiceAddress' },
  { name: 'deliveryAddress missing', body: (v) => without(v, 'deliveryAddress'), path: 'deliveryAddress' },
  { name: 'deliveryMethod missing', body: (v) => without(v, 'deliveryMethod'), path: 'deliveryMethod' },
  {
    name: 'deliveryMethod not an integer',
    body: (v) => orderFor(v, { deliveryMethod: 1.5 }),
    path: 'deliveryMethod',
  },
  { name: 'deliveryMethod unknown', body: (v) => orderFor(v, { deliveryMethod: 7 }), path: 'deliveryMethod' },
  {
    name: 'a v1-only delivery method in v2',
    body: (v) => orderFor(v, { deliveryMethod: 18 }),
    path: 'deliveryMethod',
    only: 'v2',
  },
  {
    name: `a reference over ${REFERENCE_MAX_LENGTH} characters`,
    body: (v) => orderFor(v, { reference: 'r'.repeat(REFERENCE_MAX_LENGTH + 1) }),
    path: 'reference',
  },
  {
    name: `a poNumber over ${PO_NUMBER_MAX_LENGTH} characters`,
    body: (v) => orderFor(v, { poNumber: 'p'.repeat(PO_NUMBER_MAX_LENGTH + 1) }),
    path: 'poNumber',
  },
  {
    name: 'a blank housenumber',
    body: (v) => orderFor(v, { deliveryAddress: { ...ADDRESS, housenumber: '   ' } }),
    path: 'deliveryAddress.housenumber',
  },
  {
    name: 'a missing housenumber',
    body: (v) => {
      const { housenumber: _, ...address } = ADDRESS;
      return orderFor(v, { invoiceAddress: address });
    },
    path: 'invoiceAddress.housenumber',
  },
  {
    name: 'a country the vendor does not ship to',
    body: (v) => orderFor(v, { deliveryAddress: { ...ADDRESS, country: 'us' } }),
    path: 'deliveryAddress.country',
  },
  {
    name: 'an address without a city',
    body: (v) => orderFor(v, { invoiceAddress: { ...ADDRESS, city: '' } }),
    path: 'invoiceAddress.city',
  },
  {
    name: 'an invalid e-mail address',
    body: (v) => orderFor(v, { invoiceAddress: { ...ADDRESS, email: 'not-an-email' } }),
    path: 'invoiceAddress.email',
  },
  {
    name: 'an externalId containing "/"',
    body: (v) => orderFor(v, { orderLines: [line(v, { externalId: 'a/b' })] }),
    path: 'orderLines[0].externalId',
  },
  {
    name: 'a line with two files',
    body: (v) =>
      orderFor(v, {
        orderLines: [
          line(v, { files: [{ url: 'https://a.example/1.pdf' }, { url: 'https://a.example/2.pdf' }] }),
        ],
      }),
    path: 'orderLines[0].files',
  },
  {
    name: 'a line with an empty list of files',
    body: (v) => orderFor(v, { orderLines: [line(v, { files: [] })] }),
    path: 'orderLines[0].files',
  },
  {
    name: 'a file that is not a URL',
    body: (v) => orderFor(v, { orderLines: [line(v, { files: [{ url: 'artwork.pdf' }] })] }),
    path: 'orderLines[0].files[0].url',
  },
  {
    name: 'testOrder that is not a boolean',
    body: (v) => orderFor(v, { testOrder: 'yes' }),
    path: 'testOrder',
  },
  { name: 'an unknown top-level field', body: (v) => orderFor(v, { colour: 'red' }), path: 'colour' },
  {
    name: 'a v2 line in v1',
    body: (v) => orderFor(v, { orderLines: [{ ...V2_LINE }] }),
    path: 'orderLines[0].sku',
    only: 'v1',
  },
  {
    name: 'a v1 line in v2',
    body: (v) => orderFor(v, { orderLines: [{ ...V1_LINE }] }),
    path: 'orderLines[0].productCode',
    only: 'v2',
  },
  {
    name: 'a v2 sku that is not a uuid',
    body: (v) => orderFor(v, { orderLines: [{ ...V2_LINE, sku: 'flyers' }] }),
    path: 'orderLines[0].sku',
    only: 'v2',
  },
  {
    name: 'a v2 line without attributes',
    body: (v) => orderFor(v, { orderLines: [{ ...V2_LINE, attributes: [] }] }),
    path: 'orderLines[0].attributes',
    only: 'v2',
  },
  {
    name: 'a quote line without a quoteId',
    body: (v) => orderFor(v, { orderLines: [{ quoteLineItemId: 'QL-1' }] }),
    path: 'quoteId',
    only: 'v2',
  },
  {
    name: 'a quote line in v1',
    body: (v) => orderFor(v, { quoteId: 'Q-1', orderLines: [{ quoteLineItemId: 'QL-1' }] }),
    path: 'quoteId',
    only: 'v1',
  },
  { name: 'a JSON array instead of an order', body: () => [], path: '' },
];

const UPDATE_CASES: Case[] = [
  { name: 'nothing to change', body: () => ({}), path: '' },
  {
    name: `a reference over ${REFERENCE_MAX_LENGTH} characters`,
    body: () => ({ reference: 'r'.repeat(REFERENCE_MAX_LENGTH + 1) }),
    path: 'reference',
  },
  {
    name: 'a blank housenumber',
    body: () => ({ deliveryAddress: { ...ADDRESS, housenumber: '' } }),
    path: 'deliveryAddress.housenumber',
  },
];

const LIST_CASES: { query: string; path: string }[] = [
  { query: 'limit=51', path: 'query.limit' },
  { query: 'limit=0', path: 'query.limit' },
  { query: 'limit=ten', path: 'query.limit' },
  { query: 'limit=', path: 'query.limit' },
  { query: 'offset=-1', path: 'query.offset' },
  { query: 'offset=1.5', path: 'query.offset' },
  { query: 'status=shipped', path: 'query.status' },
  { query: 'sort=date', path: 'query.sort' },
  { query: 'limit=5&limit=6', path: 'query.limit' },
  // A key an object literal takes for its prototype is a key like any other.
  { query: '__proto__=1', path: 'query.__proto__' },
  { query: 'constructor=1', path: 'query.constructor' },
];

describe.each(VERSIONS)('the sample API in %s validates', (version) => {
  let t: TestApi;
  let orderId: number;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
    const { uuid } = await t.client(version).createOrder(orderFor(version) as never);
    orderId = (await t.client(version).waitForOrder(uuid)).id;
  });
  afterAll(() => t.close());

  const expectRefusal = async (method: string, path: string, body: unknown, errorPath: string) => {
    const answer = await t.raw({ method, path, version, headers: JSON_BODY, body: JSON.stringify(body) });
    expect(answer.status).toBe(400);
    const parsed = answer.json as { message?: unknown; errors?: { path: string }[] };
    expect(parsed.message).toEqual(expect.any(String));
    expect(parsed.errors?.map((issue) => issue.path)).toContain(errorPath);
  };

  describe.each(CREATE_CASES.filter((c) => c.only === undefined || c.only === version))(
    'a new order with $name',
    ({ body, path }) => {
      it(`refuses it with 400 naming ${path || 'the body'}`, () =>
        expectRefusal('POST', '/api/orders', body(version), path));
    },
  );

  describe.each(UPDATE_CASES)('an update that sends $name', ({ body, path }) => {
    it.each(['PUT', 'POST'])(`refuses it over %s with 400 naming ${path || 'the body'}`, (method) =>
      expectRefusal(method, `/api/orders/${orderId}`, body(version), path),
    );
  });

  it('refuses a cancellation without a reason with 400', async () => {
    await expectRefusal('DELETE', `/api/orders/${orderId}`, {}, 'reason');
    await expectRefusal('DELETE', `/api/orders/${orderId}`, { reason: '  ' }, 'reason');
    const noBody = await t.raw({ method: 'DELETE', path: `/api/orders/${orderId}`, version });
    expect(noBody.status).toBe(400);
    expect(noBody.json).toMatchObject({ errors: [{ path: 'reason' }] });
  });

  it.each(LIST_CASES)('refuses the list query $query with 400 naming $path', async ({ query, path }) => {
    const answer = await t.raw({ path: `/api/orders?${query}`, version });
    expect(answer.status).toBe(400);
    expect((answer.json as { errors: { path: string }[] }).errors.map((issue) => issue.path)).toContain(path);
  });

  it('refuses an order without a body with 400 that lists the required fields', async () => {
    const answer = await t.raw({ method: 'POST', path: '/api/orders', version, headers: JSON_BODY });
    expect(answer.status).toBe(400);
    const paths = (answer.json as { errors: { path: string }[] }).errors.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining(['orderLines', 'invoiceAddress', 'deliveryAddress', 'deliveryMethod']),
    );
  });

  it('accepts every optional address field and a lower-case country', async () => {
    const address = {
      ...ADDRESS,
      country: 'be',
      company: 'Drukkerij Peeters',
      email: 'inkoop@example.be',
      housenumberAddition: 'bus 2',
      extraAddress: 'Achteringang',
      vatId: 'BE0123456789',
    };
    const answer = await t.raw({
      method: 'POST',
      path: '/api/orders',
      version,
      headers: JSON_BODY,
      body: JSON.stringify(orderFor(version, { invoiceAddress: address, deliveryAddress: address })),
    });
    expect(answer.status).toBe(201);
  });
});
