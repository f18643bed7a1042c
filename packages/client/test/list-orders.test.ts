import { describe, expect, it } from 'vitest';
import {
  API_VERSIONS,
  isRequestValidationError,
  LIST_LIMIT_MAX,
  type OrderSummary,
  RequestValidationError,
} from '../src/index.js';
import { orderSummary } from './support/fixtures.js';
import { type Handler, reply, send, useScriptedServer } from './support/scripted-server.js';

const api = useScriptedServer();

/** A server holding `total` orders that pages them by `limit` and `offset`, as the vendor does. */
function pagedOrders(total: number, claimedCount = total, pageAtMost = LIST_LIMIT_MAX): Handler {
  const all = Array.from({ length: total }, (_, index) => orderSummary(index + 1));
  return (request, response) => {
    const query = new URL(request.path, 'http://x').searchParams;
    const limit = Math.min(Number(query.get('limit') ?? LIST_LIMIT_MAX), pageAtMost);
    const offset = Number(query.get('offset') ?? 0);
    send(response, 200, { count: claimedCount, orders: all.slice(offset, offset + limit) });
  };
}

async function collect(iterable: AsyncIterable<OrderSummary>): Promise<OrderSummary[]> {
  const out: OrderSummary[] = [];
  for await (const order of iterable) out.push(order);
  return out;
}

describe.each(API_VERSIONS)('listOrders in %s', (apiVersion) => {
  it('sends GET /api/orders without a query string when no query is given', async () => {
    api.server.handle(reply(200, { count: 1, orders: [orderSummary(1)] }));
    const page = await api.client({ apiVersion }).listOrders();
    expect(page).toEqual({ count: 1, orders: [orderSummary(1)] });
    expect(api.server.request()).toMatchObject({ method: 'GET', path: '/api/orders', body: '' });
  });

  it('sends limit, offset and status in the query string', async () => {
    api.server.handle(reply(200, { count: 120, orders: [orderSummary(3, 'completed')] }));
    await api.client({ apiVersion }).listOrders({ limit: 10, offset: 50, status: 'completed' });
    expect(api.server.request().path).toBe('/api/orders?limit=10&offset=50&status=completed');
  });

  it('sends only the query keys it was given', async () => {
    api.server.handle(reply(200, { count: 0, orders: [] }));
    await api.client({ apiVersion }).listOrders({ status: 'cancelled' });
    expect(api.server.request().path).toBe('/api/orders?status=cancelled');
  });

  it('returns an empty page past the end', async () => {
    api.server.handle(reply(200, { count: 3, orders: [] }));
    const page = await api.client({ apiVersion }).listOrders({ offset: 100 });
    expect(page.orders).toEqual([]);
  });
});

describe('listOrders refuses a bad query before sending it', () => {
  it.each([
    ['a limit over 50', { limit: LIST_LIMIT_MAX + 1 }, 'query.limit'],
    ['a limit of 0', { limit: 0 }, 'query.limit'],
    ['a fractional limit', { limit: 2.5 }, 'query.limit'],
    ['a negative offset', { offset: -50 }, 'query.offset'],
    ['an unknown status', { status: 'shipped' }, 'query.status'],
    ['an unknown query key', { sort: 'date' }, 'query.sort'],
  ])('listOrders refuses %s and names %s', async (_what, query, path) => {
    const error = await api
      .client()
      .listOrders(query as never)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(isRequestValidationError(error) && error.issues.map((issue) => issue.path)).toEqual([path]);
    expect(api.server.requests).toHaveLength(0);
    expect(api.server.connections).toBe(0);
  });

  it('listOrders sends a limit over 50 when validation is turned off for the call', async () => {
    api.server.handle(reply(200, { count: 0, orders: [] }));
    await api.client().listOrders({ limit: 51 }, { validate: false });
    expect(api.server.request().path).toBe('/api/orders?limit=51');
  });
});

describe.each(API_VERSIONS)('listAllOrders in %s', (apiVersion) => {
  it('walks every page until the empty one the vendor documents as the end', async () => {
    api.server.handle(pagedOrders(5));
    const orders = await collect(api.client({ apiVersion }).listAllOrders({ limit: 2 }));
    expect(orders.map((order) => order.id)).toEqual([1, 2, 3, 4, 5]);
    expect(api.server.requests.map((request) => request.path)).toEqual([
      '/api/orders?limit=2&offset=0',
      '/api/orders?limit=2&offset=2',
      '/api/orders?limit=2&offset=4',
      '/api/orders?limit=2&offset=5',
    ]);
  });

  it('reads on past a short page from a vendor that lists fewer than asked, each page after the last', async () => {
    // Found by a front that listed 2 orders a page: a short page was taken for the end.
    api.server.handle(pagedOrders(5, 5, 2));
    const orders = await collect(api.client({ apiVersion }).listAllOrders());
    expect(orders.map((order) => order.id)).toEqual([1, 2, 3, 4, 5]);
    expect(api.server.requests.map((request) => request.path)).toEqual([
      '/api/orders?limit=50&offset=0',
      '/api/orders?limit=50&offset=2',
      '/api/orders?limit=50&offset=4',
      '/api/orders?limit=50&offset=5',
    ]);
  });

  it('ends at the empty page whatever the count says: the page size or the total, undocumented', async () => {
    for (const count of [2, 1_000]) {
      api.server.reset();
      api.server.handle(pagedOrders(3, count));
      expect(await collect(api.client({ apiVersion }).listAllOrders({ limit: 2 }))).toHaveLength(3);
      expect(api.server.requests).toHaveLength(3);
    }
  });

  it('stops at a page that repeats the one before, as a list that ignores the offset answers', async () => {
    const page = [orderSummary(1), orderSummary(2)];
    api.server.handle(reply(200, { count: 1_000_000_000, orders: page }));
    const orders = await collect(api.client({ apiVersion }).listAllOrders({ limit: 2 }));
    expect(orders.map((order) => order.id)).toEqual([1, 2]);
    expect(api.server.requests).toHaveLength(2);
  });

  it('pages by 50 and keeps the status filter on every page', async () => {
    api.server.handle(pagedOrders(60));
    const orders = await collect(api.client({ apiVersion }).listAllOrders({ status: 'in-progress' }));
    expect(orders).toHaveLength(60);
    expect(api.server.requests.map((request) => request.path)).toEqual([
      '/api/orders?limit=50&offset=0&status=in-progress',
      '/api/orders?limit=50&offset=50&status=in-progress',
      '/api/orders?limit=50&offset=60&status=in-progress',
    ]);
  });

  it('stops early, without fetching another page, when the caller breaks out', async () => {
    api.server.handle(pagedOrders(10));
    for await (const order of api.client({ apiVersion }).listAllOrders({ limit: 2 })) {
      if (order.id === 2) break;
    }
    expect(api.server.requests).toHaveLength(1);
  });

  it('refuses a page size below 1 even unvalidated, since the offset would never advance', async () => {
    api.server.handle(pagedOrders(3));
    const pages = api.client({ apiVersion }).listAllOrders({ limit: 0 }, { validate: false });
    await expect(collect(pages)).rejects.toSatisfy(isRequestValidationError);
    expect(api.server.requests).toHaveLength(0);
  });
});
