import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  type ApiVersion,
  EXAMPLE_PRODUCTS,
  HttpError,
  isRequestValidationError,
  type OrdersClient,
} from '../src/index.js';
import { address, createBodies, jsonOf, ORDER_ID, ORDER_UUID, orderDetail } from './support/fixtures.js';
import { reply, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

/** The two ways to update, each with the method it must use. */
const updates = [
  {
    call: 'updateOrder',
    method: 'PUT',
    update: (client: OrdersClient<ApiVersion>, id: string | number, body: unknown, validate?: boolean) =>
      client.updateOrder(id, body as never, validate === undefined ? undefined : { validate }),
  },
  {
    call: 'updateOrderWithPost',
    method: 'POST',
    update: (client: OrdersClient<ApiVersion>, id: string | number, body: unknown, validate?: boolean) =>
      client.updateOrderWithPost(id, body as never, validate === undefined ? undefined : { validate }),
  },
] as const;

/** A line patch in the version's own shape. */
const linePatch = {
  v1: { productCode: EXAMPLE_PRODUCTS.v1ProductCode },
  v2: { attributes: [{ attribute: 'quantity', value: '500' }] },
} as const;

const cases = API_VERSIONS.flatMap((apiVersion) => updates.map((way) => ({ apiVersion, ...way })));

for (const { call, apiVersion, method, update } of cases)
  describe(`${call} in ${apiVersion}`, () => {
    it(`sends ${method} /api/orders/{id} with only the changed part, and hands back the answer unread`, async () => {
      const answer = { ...orderDetail, reference: 'new reference' };
      api.server.handle(reply(200, answer));
      const result = await update(api.client({ apiVersion }), ORDER_ID, { reference: 'new reference' });
      expect(result).toEqual(answer);
      const request = api.server.request();
      expect(request).toMatchObject({ method, path: `/api/orders/${ORDER_ID}` });
      expect(request.headers['content-type']).toBe('application/json');
      expect(jsonOf(request.body)).toEqual({ reference: 'new reference' });
    });

    it.each([
      ['an empty body', '', undefined],
      ['plain text', 'OK', 'OK'],
    ])('hands back %s as the answer: the vendor documents none', async (_what, text, result) => {
      api.server.handle((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain' });
        response.end(text);
      });
      await expect(update(api.client({ apiVersion }), ORDER_ID, { reference: 'x' })).resolves.toBe(result);
    });

    it('updates by uuid', async () => {
      api.server.handle(reply(200, orderDetail));
      await update(api.client({ apiVersion }), ORDER_UUID, { poNumber: 'PO-77' });
      expect(api.server.request()).toMatchObject({ method, path: `/api/orders/${ORDER_UUID}` });
    });

    it('sends a new delivery address and a line patch in the version’s shape', async () => {
      api.server.handle(reply(200, orderDetail));
      const body = { deliveryAddress: { ...address, city: 'Utrecht' }, orderLines: [linePatch[apiVersion]] };
      await update(api.client({ apiVersion }), ORDER_ID, body);
      expect(jsonOf(api.server.request().body)).toEqual(body);
    });

    it('sends an unchanged invoiceAddress, deliveryMethod and line externalId as given: the vendor ignores them', async () => {
      const { invoiceAddress, deliveryMethod } = createBodies[apiVersion];
      const body = { invoiceAddress, deliveryMethod, orderLines: [{ externalId: 'line-9' }] };
      api.server.handle(reply(200, {}));
      await update(api.client({ apiVersion }), ORDER_ID, body);
      expect(jsonOf(api.server.request().body)).toEqual(body);
    });

    it.each([
      ['an unknown field', { reference: 'ok', colour: 'red' }, 'colour'],
      ['a reference over 35 characters', { reference: 'r'.repeat(36) }, 'reference'],
      [
        'a blank housenumber',
        { deliveryAddress: { ...address, housenumber: ' ' } },
        'deliveryAddress.housenumber',
      ],
      ['nothing to change', {}, ''],
    ])('refuses %s and sends nothing', async (_what, body, path) => {
      const error = await update(api.client({ apiVersion }), ORDER_ID, body).catch(
        (caught: unknown) => caught,
      );
      expect(isRequestValidationError(error) && error.issues.map((issue) => issue.path)).toEqual([path]);
      expect(api.server.requests).toHaveLength(0);
    });

    it('refuses a bad id and sends nothing', async () => {
      const error = await update(api.client({ apiVersion }), 'order-1', { reference: 'x' }).catch(
        (caught: unknown) => caught,
      );
      expect(isRequestValidationError(error) && error.issues.map((issue) => issue.path)).toEqual(['id']);
      expect(api.server.requests).toHaveLength(0);
    });

    it('sends an unchangeable field when validation is off, and reports the vendor’s 400', async () => {
      api.server.handle(reply(400, { message: 'invoiceAddress cannot be changed' }));
      const body = { invoiceAddress: address };
      const error = await update(api.client({ apiVersion }), ORDER_ID, body, false).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({
        status: 400,
        method,
        path: `/api/orders/${ORDER_ID}`,
        vendorMessage: 'invoiceAddress cannot be changed',
      });
      expect(jsonOf(api.server.request().body)).toEqual(body);
    });
  });

describe('updateOrder in v2', () => {
  it('updateOrder refuses a v1 productCode in a line patch', async () => {
    const error = await api
      .client({ apiVersion: 'v2' })
      .updateOrder(ORDER_ID, { orderLines: [{ productCode: 'x' }] } as never)
      .catch((caught: unknown) => caught);
    expect(isRequestValidationError(error) && error.issues.map((issue) => issue.path)).toEqual([
      'orderLines[0].productCode',
    ]);
    expect(api.server.requests).toHaveLength(0);
  });
});
