import { describe, expect, it } from 'vitest';
import { ConfigurationError, HttpError } from '../src/index.js';
import { jsonOf, ORDER_ID, SECRET } from './support/fixtures.js';
import { type Handler, inSequence, reply, send, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();
const other = useScriptedServer();

/** Answers `status` with a `Location` of `to`; a request already there gets `moved`. */
const movedTo =
  (status: number, to: string, moved: Handler = reply(200, { success: true })): Handler =>
  (request, response, raw) =>
    request.path.startsWith('/v2/')
      ? moved(request, response, raw)
      : send(response, status, '', { location: to });

describe('a redirect', () => {
  it('is an HttpError that says where it points, and is not followed by default', async () => {
    api.server.handle(movedTo(308, '/v2/api/orders'));
    const error = await api
      .client()
      .listOrders()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 308, location: '/v2/api/orders' });
    expect((error as Error).message).toContain(
      'a redirect to /v2/api/orders, which the client does not follow',
    );
    expect(api.server.requests).toHaveLength(1);
  });

  it('never carries the secret in where it points', async () => {
    api.server.handle(movedTo(307, `/v2/api/orders?token=${SECRET}`));
    const error = (await api
      .client()
      .listOrders()
      .catch((caught: unknown) => caught)) as HttpError;
    expect(error.location).toBe('/v2/api/orders?token=[REDACTED]');
    expect(error.message).not.toContain(SECRET);
  });

  it.each([301, 302, 307, 308])(
    'with followRedirects, a %i on the same origin is followed, method and body kept',
    async (status) => {
      api.server.handle(movedTo(status, `/v2/api/orders/${ORDER_ID}`));
      const result = await api.client({ followRedirects: 1 }).cancelOrder(ORDER_ID, 'moved');
      expect(result).toEqual({ success: true });
      const [first, second] = api.server.requests;
      expect(first?.path).toBe(`/api/orders/${ORDER_ID}`);
      expect(second).toMatchObject({ method: 'DELETE', path: `/v2/api/orders/${ORDER_ID}` });
      expect(jsonOf(second?.body ?? '')).toEqual({ reason: 'moved' });
    },
  );

  it.each([
    ['another order', '/api/orders/42'],
    ['another order moved', `/v2/api/orders/9${ORDER_ID}`],
    ['the list', '/api/orders'],
  ])(
    'with followRedirects, a cancel redirected to %s is not followed: no other order is cancelled',
    async (_what, to) => {
      api.server.handle(movedTo(308, to));
      await expect(api.client({ followRedirects: 3 }).cancelOrder(ORDER_ID, 'moved')).rejects.toMatchObject({
        status: 308,
        location: to,
      });
      expect(api.server.requests).toHaveLength(1);
    },
  );

  it('with followRedirects, a read is followed to another path of the origin', async () => {
    api.server.handle(movedTo(302, '/v2/api/orders/42', reply(200, { count: 0, orders: [] })));
    await expect(api.client({ followRedirects: 1 }).listOrders()).resolves.toEqual({ count: 0, orders: [] });
    expect(api.server.requests.map((request) => request.path)).toEqual(['/api/orders', '/v2/api/orders/42']);
  });

  it('with followRedirects, a 303 is followed by a read but not by a cancel', async () => {
    api.server.handle(movedTo(303, '/v2/api/orders', reply(200, { count: 0, orders: [] })));
    await expect(api.client({ followRedirects: 1 }).listOrders()).resolves.toEqual({ count: 0, orders: [] });
    api.server.reset();
    api.server.handle(movedTo(303, `/v2/api/orders/${ORDER_ID}`));
    await expect(api.client({ followRedirects: 1 }).cancelOrder(ORDER_ID, 'moved')).rejects.toMatchObject({
      status: 303,
    });
    expect(api.server.requests).toHaveLength(1);
  });

  it('to another origin is never followed: the credentials stay home', async () => {
    other.server.handle(reply(200, { success: true }));
    api.server.handle(movedTo(308, `${other.server.origin}/v2/api/orders/${ORDER_ID}`));
    await expect(api.client({ followRedirects: 3 }).cancelOrder(ORDER_ID, 'moved')).rejects.toMatchObject({
      status: 308,
      location: `${other.server.origin}/v2/api/orders/${ORDER_ID}`,
    });
    expect(other.server.requests).toHaveLength(0);
  });

  it('is followed at most followRedirects times', async () => {
    api.server.handle(inSequence(...[1, 2, 3].map((hop) => reply(308, '', { location: `/hop/${hop}` }))));
    await expect(api.client({ followRedirects: 2 }).getOrder(ORDER_ID)).rejects.toMatchObject({
      status: 308,
      location: '/hop/3',
    });
    expect(api.server.requests.map((request) => request.path)).toEqual([
      `/api/orders/${ORDER_ID}`,
      '/hop/1',
      '/hop/2',
    ]);
  });

  it('count that is not a whole number ≥ 0 is a ConfigurationError naming the option', () => {
    expect(() => api.client({ followRedirects: -1 })).toThrow(ConfigurationError);
    expect(() => api.client({ followRedirects: 1.5 })).toThrow(/followRedirects must be a whole number/);
  });
});
