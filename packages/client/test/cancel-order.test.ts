import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  CANCEL_REFUSED_MESSAGE,
  HttpError,
  isRequestValidationError,
  ResponseValidationError,
} from '../src/index.js';
import { jsonOf, ORDER_ID, ORDER_UUID } from './support/fixtures.js';
import { reply, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

describe.each(API_VERSIONS)('cancelOrder in %s', (apiVersion) => {
  it('sends DELETE /api/orders/{id} with the reason as a JSON body', async () => {
    api.server.handle(reply(200, { success: true }));
    const result = await api.client({ apiVersion }).cancelOrder(ORDER_ID, 'ordered twice');
    expect(result).toEqual({ success: true });
    const request = api.server.request();
    expect(request).toMatchObject({ method: 'DELETE', path: `/api/orders/${ORDER_ID}` });
    expect(request.headers['content-type']).toBe('application/json');
    expect(jsonOf(request.body)).toEqual({ reason: 'ordered twice' });
  });

  it('cancels by uuid', async () => {
    api.server.handle(reply(200, { success: true }));
    await api.client({ apiVersion }).cancelOrder(ORDER_UUID, 'test order');
    expect(api.server.request()).toMatchObject({ method: 'DELETE', path: `/api/orders/${ORDER_UUID}` });
  });

  it('returns success false as the vendor said it', async () => {
    api.server.handle(reply(200, { success: false }));
    expect(await api.client({ apiVersion }).cancelOrder(ORDER_ID, 'late')).toEqual({ success: false });
  });

  it('reports an order in production as an HttpError 500 with "Cancel order failed"', async () => {
    api.server.handle(reply(500, { message: CANCEL_REFUSED_MESSAGE }));
    const error = await api
      .client({ apiVersion })
      .cancelOrder(ORDER_ID, 'too late')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 500,
      method: 'DELETE',
      path: `/api/orders/${ORDER_ID}`,
      vendorMessage: CANCEL_REFUSED_MESSAGE,
    });
    expect(api.server.requests).toHaveLength(1);
  });

  it('refuses a blank reason and sends nothing', async () => {
    const error = await api
      .client({ apiVersion })
      .cancelOrder(ORDER_ID, '  ')
      .catch((caught: unknown) => caught);
    expect(isRequestValidationError(error) && error.issues.map((issue) => issue.path)).toEqual(['reason']);
    expect(api.server.requests).toHaveLength(0);
    expect(api.server.connections).toBe(0);
  });

  it('reports an empty 204 answer as a ResponseValidationError: the vendor documents a body', async () => {
    api.server.handle(reply(204));
    const error = await api
      .client({ apiVersion })
      .cancelOrder(ORDER_ID, 'no body')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ status: 204, method: 'DELETE' });
  });
});
