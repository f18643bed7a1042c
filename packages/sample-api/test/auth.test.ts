import { isHttpError, SECRET_HEADER, USER_ID_HEADER } from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderFor } from './helpers/orders.js';
import { DEMO, JSON_BODY, OTHER, startTestApi, type TestApi } from './helpers/sample-api.js';

const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 'succeeded',
    (error: unknown) => (isHttpError(error) ? error.status : error),
  );

describe('the sample API checks credentials', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
  });
  afterAll(() => t.close());

  it.each([
    ['no credential headers', {}],
    ['only the User-ID header', { [USER_ID_HEADER]: DEMO.userId }],
    ['only the API-Secret header', { [SECRET_HEADER]: DEMO.secret }],
    ['empty values', { [USER_ID_HEADER]: '', [SECRET_HEADER]: '' }],
  ])('refuses a request with %s with 401', async (_name, headers) => {
    const answer = await t.raw({ path: '/api/orders', credentials: false, headers });
    expect(answer.status).toBe(401);
    expect(answer.json).toEqual({ message: expect.stringContaining(USER_ID_HEADER) });
  });

  it('refuses a wrong secret and an unknown user alike with 401', async () => {
    const wrongSecret = await t.raw({
      path: '/api/orders',
      credentials: { userId: DEMO.userId, secret: 'guess' },
    });
    const unknownUser = await t.raw({
      path: '/api/orders',
      credentials: { userId: 'nobody', secret: DEMO.secret },
    });
    const otherSecret = await t.raw({
      path: '/api/orders',
      credentials: { userId: DEMO.userId, secret: OTHER.secret },
    });
    expect([wrongSecret.status, unknownUser.status, otherSecret.status]).toEqual([401, 401, 401]);
    expect(unknownUser.json).toEqual(wrongSecret.json);
  });

  it('checks credentials before routing, so an unknown route or method reveals nothing', async () => {
    const unknownRoute = await t.raw({ path: '/api/invoices', credentials: false });
    const wrongMethod = await t.raw({ method: 'PATCH', path: '/api/orders/1', credentials: false });
    const badVersion = await t.raw({
      path: '/api/orders',
      credentials: false,
      headers: { accept: 'application/vnd.printdeal-api.v9' },
    });
    expect([unknownRoute.status, wrongMethod.status, badVersion.status]).toEqual([401, 401, 401]);
  });

  it('never echoes a secret in an answer', async () => {
    const secret = 'my-very-secret-value';
    const answer = await t.raw({ path: '/api/orders/1', credentials: { userId: DEMO.userId, secret } });
    expect(answer.text).not.toContain(secret);
  });

  it('refuses the client of a set it does not know with a 401 HttpError', async () => {
    const stranger = t.client('v2', { userId: 'stranger', secret: 'unknown' });
    expect(await statusOf(stranger.listOrders())).toBe(401);
  });
});

describe('the sample API keeps credential sets apart', () => {
  let t: TestApi;
  let mine: { id: number; uuid: string };
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0 });
    const { uuid } = await t.client('v2', DEMO).createOrder(orderFor('v2') as never);
    const order = await t.client('v2', DEMO).waitForOrder(uuid);
    mine = { id: order.id, uuid };
  });
  afterAll(() => t.close());

  it("answers another set's order with 404, by id and by uuid", async () => {
    const other = t.client('v2', OTHER);
    expect(await statusOf(other.getOrder(mine.id))).toBe(404);
    expect(await statusOf(other.getOrder(mine.uuid))).toBe(404);
  });

  it("answers an update or cancellation of another set's order with 404 and leaves it unchanged", async () => {
    const other = t.client('v2', OTHER);
    expect(await statusOf(other.updateOrder(mine.id, { reference: 'hijacked' }))).toBe(404);
    expect(await statusOf(other.updateOrderWithPost(mine.uuid, { reference: 'hijacked' }))).toBe(404);
    expect(await statusOf(other.cancelOrder(mine.id, 'not yours'))).toBe(404);
    const order = await t.client('v2', DEMO).getOrder(mine.id);
    expect(order.reference).not.toBe('hijacked');
    expect(order.status).toBe('in-progress');
  });

  it("answers another set's order exactly like an unknown id", async () => {
    const foreign = await t.raw({ path: `/api/orders/${mine.id}`, credentials: OTHER });
    const unknown = await t.raw({ path: '/api/orders/987654321', credentials: OTHER });
    expect(foreign.status).toBe(unknown.status);
    expect(foreign.json).toEqual(unknown.json);
  });

  it('lists only the orders of the set that asks, with ids unique across sets', async () => {
    const demoIds = (await t.client('v2', DEMO).listOrders()).orders.map((order) => order.id);
    const otherIds = (await t.client('v2', OTHER).listOrders()).orders.map((order) => order.id);
    expect(demoIds).toContain(mine.id);
    expect(otherIds).not.toContain(mine.id);
    expect(demoIds.filter((id) => otherIds.includes(id))).toEqual([]);
  });

  it('accepts custom credential sets and refuses the demo ones then', async () => {
    const custom = await startTestApi({ credentials: [{ userId: 'team-a', secret: 's3cret with spaces' }] });
    try {
      const ok = await custom.raw({
        path: '/api/orders',
        credentials: { userId: 'team-a', secret: 's3cret with spaces' },
      });
      const demo = await custom.raw({ path: '/api/orders', credentials: DEMO });
      expect([ok.status, demo.status]).toEqual([200, 401]);
    } finally {
      await custom.close();
    }
  });

  it('creates an order for the set that sent it only', async () => {
    const answer = await t.raw({
      method: 'POST',
      path: '/api/orders',
      credentials: OTHER,
      version: 'v1',
      headers: JSON_BODY,
      body: JSON.stringify(orderFor('v1')),
    });
    const { uuid } = answer.json as { uuid: string };
    expect(await statusOf(t.client('v1', OTHER).waitForOrder(uuid))).toBe('succeeded');
    expect(await statusOf(t.client('v1', DEMO).getOrder(uuid))).toBe(404);
  });
});
