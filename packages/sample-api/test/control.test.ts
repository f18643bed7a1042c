import { CANCEL_REFUSED_MESSAGE, isHttpError, isOrderCreationFailedError } from '@print-contracts/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_STATES } from '../src/control-surface.js';
import { SEED_ORDER_COUNT } from '../src/store/seed.js';
import { inspect, setState } from './helpers/control.js';
import { orderFor } from './helpers/orders.js';
import { OTHER, startTestApi, type TestApi } from './helpers/sample-api.js';

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe('the sample API without the control surface', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi();
  });
  afterAll(() => t.close());

  it.each([
    ['POST', '/__control/orders/1000001/state'],
    ['POST', '/__control/reset'],
    ['PUT', '/__control/faults'],
    ['GET', '/__control'],
  ])('answers %s %s with an ordinary 404 JSON', async (method, path) => {
    const answer = await t.raw({ method, path, credentials: false, body: '{"state":"shipped"}' });
    expect(answer.status).toBe(404);
    expect(answer.json).toEqual({ message: expect.stringContaining('/api') });
  });
});

describe('the sample API control surface', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0, control: true });
  });
  afterAll(() => t.close());

  const newOrder = async (client = t.client('v2')) => {
    const { uuid } = await client.createOrder(orderFor('v2') as never);
    return client.waitForOrder(uuid);
  };

  it('puts an order in production by id or uuid and answers its id and uuid', async () => {
    const order = await newOrder();
    const byId = await setState(t, order.id, 'in-production');
    expect(byId.status).toBe(200);
    expect(byId.json).toMatchObject({ id: order.id, uuid: order.uuid, state: 'in-production' });
    const byUuid = await setState(t, order.uuid as string, 'in-production');
    expect(byUuid.json).toMatchObject({ id: order.id, uuid: order.uuid });
    const read = await t.client('v2').getOrder(order.id);
    expect(read.lines.every((line) => line.status === 'in-production')).toBe(true);
    const cancel = await caught(t.client('v2').cancelOrder(order.id, 'Too late'));
    expect(isHttpError(cancel) && [cancel.status, cancel.vendorMessage]).toEqual([
      500,
      CANCEL_REFUSED_MESSAGE,
    ]);
  });

  it('marks an order as failed so it reads as 404 "creation failed"', async () => {
    const order = await newOrder();
    await setState(t, order.id, 'creation-failed', { reason: 'artwork could not be fetched' });
    const read = await t.raw({ path: `/api/orders/${order.uuid}` });
    expect(read.status).toBe(404);
    expect((read.json as { message: string }).message).toBe(
      'Order creation failed: artwork could not be fetched',
    );
    expect(isOrderCreationFailedError(await caught(t.client('v2').waitForOrder(order.uuid as string)))).toBe(
      true,
    );
  });

  it('ships and completes orders with track-and-trace URLs', async () => {
    for (const state of ['shipped', 'completed'] as const) {
      const order = await newOrder();
      await setState(t, order.id, state);
      const read = await t.client('v1').getOrder(order.id);
      expect(read.status).toBe(state === 'completed' ? 'completed' : 'in-progress');
      expect(read.lines[0]?.status).toBe('shipped');
      expect(read.lines[0]?.shipmentInfo?.[0]?.trackAndTraceUrl[0]).toMatch(/^https:\/\//);
    }
  });

  it('cancels an order and puts it back into processing', async () => {
    const order = await newOrder();
    await setState(t, order.id, 'cancelled');
    expect((await t.client('v2').getOrder(order.id)).status).toBe('cancelled');
    await setState(t, order.id, 'processing');
    const back = await t.client('v2').getOrder(order.id);
    expect([back.status, back.lines[0]?.status]).toEqual(['in-progress', 'processing']);
  });

  it("finds another credential set's order without credentials", async () => {
    const order = await newOrder(t.client('v2', OTHER));
    const answer = await setState(t, order.id, 'in-production');
    expect(answer.status).toBe(200);
    expect((await inspect(t, order.id)).userId).toBe(OTHER.userId);
  });

  it('answers 404 for an unknown order and 400 for an unknown state', async () => {
    expect((await setState(t, 987_654_321, 'shipped')).status).toBe(404);
    const bad = await setState(t, 1_000_001, 'teleported');
    expect(bad.status).toBe(400);
    expect((bad.json as { message: string }).message).toContain(CONTROL_STATES.join(', '));
  });

  it('answers 405 with Allow for a wrong method and 404 for an unknown control route', async () => {
    const wrong = await t.raw({ method: 'GET', path: '/__control/reset', credentials: false });
    expect([wrong.status, wrong.headers.allow]).toEqual([405, 'POST']);
    expect((await t.raw({ path: '/__control/nothing', credentials: false })).status).toBe(404);
  });

  it('reads a state body whatever its content type', async () => {
    const order = await newOrder();
    const answer = await t.raw({
      method: 'POST',
      path: `/__control/orders/${order.id}/state`,
      credentials: false,
      headers: { 'content-type': 'text/plain' },
      body: '{"state":"shipped"}',
    });
    expect(answer.status).toBe(200);
  });

  it('resets every credential set to the seed data', async () => {
    const created = await newOrder();
    await setState(t, 1_000_001, 'cancelled');
    const reset = await t.raw({ method: 'POST', path: '/__control/reset', credentials: false });
    expect(reset.status).toBe(200);
    const page = await t.client('v2').listOrders();
    expect(page.count).toBe(SEED_ORDER_COUNT);
    expect(page.orders.map((order) => order.id)).not.toContain(created.id);
    expect((await t.client('v2').getOrder(1_000_001)).status).toBe('completed');
  });

  it('sets, lists and clears fault rules at runtime', async () => {
    const put = await t.raw({
      method: 'PUT',
      path: '/__control/faults',
      credentials: false,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([{ operation: 'listOrders', status: 503, times: 1 }]),
    });
    expect(put.json).toEqual({ faults: [{ operation: 'listOrders', status: 503, times: 1 }] });
    expect((await t.raw({ path: '/api/orders' })).status).toBe(503);
    expect((await t.raw({ path: '/api/orders' })).status).toBe(200);
    const listed = await t.raw({ path: '/__control/faults', credentials: false });
    expect(listed.json).toEqual({ faults: [{ operation: 'listOrders', status: 503, times: 0 }] });
    const cleared = await t.raw({ method: 'DELETE', path: '/__control/faults', credentials: false });
    expect(cleared.json).toEqual({ faults: [] });
  });

  it('refuses fault rules it cannot apply with 400 naming the field', async () => {
    const put = (body: string) =>
      t.raw({ method: 'PUT', path: '/__control/faults', credentials: false, body });
    const badStatus = await put(JSON.stringify([{ status: 404 }]));
    expect(badStatus.status).toBe(400);
    expect((badStatus.json as { message: string }).message).toContain('faults[0].status');
    expect((await put(JSON.stringify({ status: 503 }))).status).toBe(400);
    expect((await put(JSON.stringify([{ operation: 'deleteEverything', status: 503 }]))).status).toBe(400);
    expect((await put(JSON.stringify([{ drop: true, nonJson: true }]))).status).toBe(400);
    expect((await put('[{')).status).toBe(400);
  });
});
