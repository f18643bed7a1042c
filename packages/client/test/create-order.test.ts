import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  type ApiVersion,
  EXAMPLE_PRODUCTS,
  HttpError,
  isRequestValidationError,
  PO_NUMBER_MAX_LENGTH,
  REFERENCE_MAX_LENGTH,
  RequestValidationError,
} from '../src/index.js';
import { address, createBodies, createBody, jsonOf, ORDER_UUID } from './support/fixtures.js';
import { reply, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

const created = reply(201, { uuid: ORDER_UUID });
const file = { url: EXAMPLE_PRODUCTS.artworkUrl };

/** Sends `body` as a create of `apiVersion` and returns what the client threw. */
async function refusal(apiVersion: ApiVersion, body: unknown): Promise<RequestValidationError> {
  const error = await api
    .client({ apiVersion })
    .createOrder(body as never)
    .then(
      () => undefined,
      (caught: unknown) => caught,
    );
  if (!isRequestValidationError(error)) throw new Error(`expected a RequestValidationError, got ${error}`);
  return error;
}

describe.each(API_VERSIONS)('createOrder in %s', (apiVersion) => {
  it('posts the order to /api/orders as JSON and returns the uuid', async () => {
    api.server.handle(created);
    const result = await api.client({ apiVersion }).createOrder(createBodies[apiVersion]);
    expect(result).toEqual({ uuid: ORDER_UUID });
    const request = api.server.request();
    expect(request).toMatchObject({ method: 'POST', path: '/api/orders' });
    expect(request.headers['content-type']).toBe('application/json');
    expect(jsonOf(request.body)).toEqual(createBodies[apiVersion]);
  });

  it('creates a test order, which the vendor neither produces nor bills', async () => {
    api.server.handle(created);
    await api.client({ apiVersion }).createOrder({ ...createBodies[apiVersion], testOrder: true });
    expect(jsonOf(api.server.request().body)).toMatchObject({ testOrder: true });
  });

  it('sends the optional reference, PO number and line externalId at their limits', async () => {
    api.server.handle(created);
    const body = createBody(apiVersion);
    body.reference = 'r'.repeat(REFERENCE_MAX_LENGTH);
    body.poNumber = 'p'.repeat(PO_NUMBER_MAX_LENGTH);
    Object.assign(body.orderLines[0] as object, { externalId: 'line-1' });
    await api.client({ apiVersion }).createOrder(body as never);
    expect(jsonOf(api.server.request().body)).toEqual(body);
  });

  it('turns a 400 into an HttpError naming the vendor message', async () => {
    api.server.handle(reply(400, { message: 'Invalid order data' }));
    const error = await api
      .client({ apiVersion })
      .createOrder(createBodies[apiVersion])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 400, method: 'POST', path: '/api/orders' });
    expect((error as HttpError).vendorMessage).toBe('Invalid order data');
  });
});

describe('createOrder in v1', () => {
  it('sends a productCode line', async () => {
    api.server.handle(created);
    await api.client({ apiVersion: 'v1' }).createOrder(createBodies.v1);
    expect(jsonOf(api.server.request().body)).toMatchObject({
      orderLines: [{ productCode: EXAMPLE_PRODUCTS.v1ProductCode, files: [file] }],
    });
  });

  it.each([6, 18, 19])('accepts pick-up point delivery method %i', async (deliveryMethod) => {
    api.server.handle(created);
    await api.client({ apiVersion: 'v1' }).createOrder({ ...createBodies.v1, deliveryMethod });
    expect(jsonOf(api.server.request().body)).toMatchObject({ deliveryMethod });
  });

  it('refuses a v2 line (sku and attributes)', async () => {
    const error = await refusal('v1', createBodies.v2);
    expect(error.issues.map((issue) => issue.path)).toEqual(
      expect.arrayContaining(['orderLines[0].productCode', 'orderLines[0].sku', 'orderLines[0].attributes']),
    );
    expect(api.server.requests).toHaveLength(0);
  });
});

describe('createOrder in v2', () => {
  it('sends a sku line with its attributes', async () => {
    api.server.handle(created);
    await api.client({ apiVersion: 'v2' }).createOrder(createBodies.v2);
    expect(jsonOf(api.server.request().body)).toMatchObject({
      orderLines: [{ sku: EXAMPLE_PRODUCTS.v2Sku, attributes: EXAMPLE_PRODUCTS.v2Attributes, files: [file] }],
    });
  });

  it('creates a quote order: quoteId on the order, quoteLineItemId on the line', async () => {
    api.server.handle(created);
    const body = { ...createBodies.v2, quoteId: 'Q-2024-118', orderLines: [{ quoteLineItemId: 55_123 }] };
    await api.client({ apiVersion: 'v2' }).createOrder(body);
    expect(jsonOf(api.server.request().body)).toEqual(body);
  });

  it('refuses a quote line without a quoteId on the order', async () => {
    const error = await refusal('v2', { ...createBodies.v2, orderLines: [{ quoteLineItemId: 55_123 }] });
    expect(error.issues.map((issue) => issue.path)).toEqual(['quoteId']);
    expect(api.server.requests).toHaveLength(0);
  });

  it('refuses a v1 line (productCode)', async () => {
    const error = await refusal('v2', createBodies.v1);
    expect(error.issues.map((issue) => issue.path)).toContain('orderLines[0].productCode');
    expect(api.server.requests).toHaveLength(0);
  });

  it.each([6, 18, 19])('refuses the v1-only pick-up point delivery method %i', async (deliveryMethod) => {
    const error = await refusal('v2', { ...createBodies.v2, deliveryMethod });
    expect(error.issues.map((issue) => issue.path)).toEqual(['deliveryMethod']);
    expect(api.server.requests).toHaveLength(0);
    expect(api.server.connections).toBe(0);
  });

  it('refuses a sku that is not a category uuid', async () => {
    const body = createBody('v2');
    Object.assign(body.orderLines[0] as object, { sku: 'flyers' });
    const error = await refusal('v2', body);
    expect(error.issues.map((issue) => issue.path)).toEqual(['orderLines[0].sku']);
  });

  it('refuses a line without attributes', async () => {
    const body = createBody('v2');
    Object.assign(body.orderLines[0] as object, { attributes: [] });
    const error = await refusal('v2', body);
    expect(error.issues.map((issue) => issue.path)).toEqual(['orderLines[0].attributes']);
  });
});

/** One broken field each; `path` is the field the error must name. */
const rules: { rule: string; path: string; breakBody: (body: Record<string, unknown>) => void }[] = [
  { rule: 'a missing orderLines', path: 'orderLines', breakBody: (body) => delete body.orderLines },
  { rule: 'an empty orderLines', path: 'orderLines', breakBody: (body) => (body.orderLines = []) },
  {
    rule: 'a missing invoiceAddress',
    path: 'invoiceAddress',
    breakBody: (body) => delete body.invoiceAddress,
  },
  {
    rule: 'a missing deliveryAddress',
    path: 'deliveryAddress',
    breakBody: (body) => delete body.deliveryAddress,
  },
  {
    rule: 'a missing deliveryMethod',
    path: 'deliveryMethod',
    breakBody: (body) => delete body.deliveryMethod,
  },
  {
    rule: 'a delivery method that is not a whole number',
    path: 'deliveryMethod',
    breakBody: (body) => (body.deliveryMethod = '1'),
  },
  {
    rule: 'an address without a first name',
    path: 'deliveryAddress.firstName',
    breakBody: (body) => (body.deliveryAddress = { ...address, firstName: '' }),
  },
  {
    rule: `a reference over ${REFERENCE_MAX_LENGTH} characters`,
    path: 'reference',
    breakBody: (body) => (body.reference = 'r'.repeat(REFERENCE_MAX_LENGTH + 1)),
  },
  {
    rule: `a poNumber over ${PO_NUMBER_MAX_LENGTH} characters`,
    path: 'poNumber',
    breakBody: (body) => (body.poNumber = 'p'.repeat(PO_NUMBER_MAX_LENGTH + 1)),
  },
  {
    rule: 'a blank housenumber',
    path: 'invoiceAddress.housenumber',
    breakBody: (body) => (body.invoiceAddress = { ...address, housenumber: '   ' }),
  },
  {
    rule: 'a country the vendor does not ship to',
    path: 'deliveryAddress.country',
    breakBody: (body) => (body.deliveryAddress = { ...address, country: 'us' }),
  },
  {
    rule: 'an e-mail address that is not one',
    path: 'invoiceAddress.email',
    breakBody: (body) => (body.invoiceAddress = { ...address, email: 'anna at example' }),
  },
  {
    rule: 'an externalId with a "/"',
    path: 'orderLines[0].externalId',
    breakBody: (body) => Object.assign((body.orderLines as object[])[0] as object, { externalId: 'a/b' }),
  },
  {
    rule: 'a line without files',
    path: 'orderLines[0].files',
    breakBody: (body) => Object.assign((body.orderLines as object[])[0] as object, { files: [] }),
  },
  {
    rule: 'a line with two files',
    path: 'orderLines[0].files',
    breakBody: (body) => Object.assign((body.orderLines as object[])[0] as object, { files: [file, file] }),
  },
  {
    rule: 'a file whose url is not a URL',
    path: 'orderLines[0].files[0].url',
    breakBody: (body) => Object.assign((body.orderLines as object[])[0] as object, { files: [{ url: 'x' }] }),
  },
  {
    rule: 'an unknown field on the order',
    path: 'giftWrap',
    breakBody: (body) => (body.giftWrap = true),
  },
  {
    rule: 'an unknown field on an address',
    path: 'invoiceAddress.floor',
    breakBody: (body) => (body.invoiceAddress = { ...address, floor: 3 }),
  },
  {
    rule: 'a testOrder that is not a boolean',
    path: 'testOrder',
    breakBody: (body) => (body.testOrder = 'yes'),
  },
];

describe.each(API_VERSIONS)('createOrder in %s validates the order before sending it', (apiVersion) => {
  for (const { rule, path, breakBody } of rules) {
    it(`createOrder refuses ${rule}, names ${path} and sends nothing`, async () => {
      const body = createBody(apiVersion);
      breakBody(body);
      const error = await refusal(apiVersion, body);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(error).toMatchObject({
        operation: 'createOrder',
        apiVersion,
        code: 'ERR_PRINT_REQUEST_VALIDATION',
      });
      expect(error.issues.map((issue) => issue.path)).toEqual([path]);
      expect(error.message).toContain(path);
      expect(api.server.requests).toHaveLength(0);
      expect(api.server.connections).toBe(0);
    });
  }

  it('names every bad field at once', async () => {
    const body = createBody(apiVersion);
    body.reference = 'r'.repeat(REFERENCE_MAX_LENGTH + 1);
    body.deliveryAddress = { ...address, housenumber: '', country: 'xx' };
    Object.assign(body.orderLines[0] as object, { externalId: 'a/b' });
    const error = await refusal(apiVersion, body);
    expect(error.issues.map((issue) => issue.path).sort()).toEqual(
      [
        'deliveryAddress.country',
        'deliveryAddress.housenumber',
        'orderLines[0].externalId',
        'reference',
      ].sort(),
    );
    expect(api.server.requests).toHaveLength(0);
  });

  it('accepts a country in upper or lower case', async () => {
    api.server.handle(created);
    const body = createBody(apiVersion);
    body.deliveryAddress = { ...address, country: 'BE' };
    await api.client({ apiVersion }).createOrder(body as never);
    expect(api.server.requests).toHaveLength(1);
  });

  it('sends an invalid order unchanged when validation is off for the call', async () => {
    api.server.handle(reply(400, { message: 'reference too long' }));
    const body = createBody(apiVersion);
    body.reference = 'r'.repeat(REFERENCE_MAX_LENGTH + 1);
    body.giftWrap = true;
    const error = await api
      .client({ apiVersion })
      .createOrder(body as never, { validate: false })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(jsonOf(api.server.request().body)).toEqual(body);
  });
});
