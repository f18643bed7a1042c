import { CANCEL_REFUSED_MESSAGE, isHttpError, isOrderCreationFailedError } from '@print-contracts/client';
import { PROVIDER_STATES } from '@print-contracts/client/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROVIDER_STATES_PATH } from '../src/index.js';
import { inspect } from './helpers/control.js';
import { DEMO, OTHER, type RawAnswer, startTestApi, type TestApi } from './helpers/sample-api.js';

type Action = 'setup' | 'teardown';

/** One state-change call as the official Pact verifiers make it. */
function change(
  t: TestApi,
  state: string,
  params: Record<string, unknown> = {},
  action: Action = 'setup',
): Promise<RawAnswer> {
  return t.raw({
    method: 'POST',
    path: PROVIDER_STATES_PATH,
    credentials: false,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ state, params, action }),
  });
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

const values = (answer: RawAnswer) => answer.json as { id: number; uuid: string };

/** Params that make each state's setup hold on a freshly seeded sample API. */
const PARAMS_THAT_HOLD: Record<string, Record<string, unknown>> = {
  [PROVIDER_STATES.noOrderWithId.name]: { id: 999_999_999 },
  [PROVIDER_STATES.ordersWithStatusExist.name]: { status: 'cancelled' },
  [PROVIDER_STATES.fewerOrdersThanOffset.name]: { offset: 10_000 },
};

describe('the provider-state endpoint', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0, control: true });
  });
  afterAll(() => t.close());

  it.each(Object.values(PROVIDER_STATES))(
    'sets up "$name" and answers every value the vocabulary says it provides',
    async ({ name, provides }) => {
      const setup = await change(t, name, PARAMS_THAT_HOLD[name]);
      expect(setup.status, setup.text).toBe(200);
      for (const key of provides) expect(setup.json).toHaveProperty(key);
      expect((await change(t, name, PARAMS_THAT_HOLD[name], 'teardown')).status).toBe(200);
    },
  );

  it('answers an interaction without a state with an empty object, on setup and on teardown', async () => {
    for (const action of ['setup', 'teardown'] as const) {
      const answer = await change(t, '', {}, action);
      expect([answer.status, answer.json]).toEqual([200, {}]);
    }
  });

  it('treats a change without an action as a setup, as older Pact verifiers send it', async () => {
    const answer = await t.raw({
      method: 'POST',
      path: PROVIDER_STATES_PATH,
      credentials: false,
      body: JSON.stringify({ state: PROVIDER_STATES.orderExists.name }),
    });
    expect(answer.status).toBe(200);
    expect(values(answer).id).toBeGreaterThan(0);
    expect((await change(t, PROVIDER_STATES.orderExists.name, {}, 'teardown')).json).toEqual({
      removed: [values(answer).id],
    });
  });

  it('gives "an order exists" a fresh order the caller can read, update and cancel, and teardown removes it', async () => {
    const first = values(await change(t, PROVIDER_STATES.orderExists.name));
    const second = values(await change(t, PROVIDER_STATES.orderExists.name));
    expect(second.id).not.toBe(first.id);
    const client = t.client('v2');
    expect((await client.getOrder(first.uuid)).id).toBe(first.id);
    await client.updateOrder(first.id, { reference: 'Changed by the test' });
    expect(await client.cancelOrder(first.id, 'Changed my mind')).toEqual({ success: true });

    // One teardown per setup: the orders go with the last of them.
    await change(t, PROVIDER_STATES.orderExists.name, {}, 'teardown');
    const teardown = await change(t, PROVIDER_STATES.orderExists.name, {}, 'teardown');
    expect(teardown.json).toEqual({ removed: [first.id, second.id] });
    const gone = await caught(client.getOrder(first.id));
    expect(isHttpError(gone) && gone.status).toBe(404);
    expect((await t.raw({ path: `/__control/orders/${first.id}`, credentials: false })).status).toBe(404);
  });

  it('gives "an order in production exists" an order whose cancel answers 500 and whose update answers 400', async () => {
    const { id, uuid } = values(await change(t, PROVIDER_STATES.orderInProductionExists.name));
    const client = t.client('v1');
    const cancel = await caught(client.cancelOrder(id, 'Too late'));
    expect(isHttpError(cancel) && [cancel.status, cancel.vendorMessage]).toEqual([
      500,
      CANCEL_REFUSED_MESSAGE,
    ]);
    const update = await caught(client.updateOrder(uuid, { reference: 'Too late' }));
    expect(isHttpError(update) && update.status).toBe(400);
    await change(t, PROVIDER_STATES.orderInProductionExists.name, {}, 'teardown');
  });

  it('names for "a shipped order exists" an order of the caller with a shipped line that carries shipment info', async () => {
    const { id } = values(await change(t, PROVIDER_STATES.shippedOrderExists.name));
    const order = await t.client('v2').getOrder(id);
    expect(
      order.lines.some(
        (line) =>
          line.status === 'shipped' && Array.isArray(line.shipmentInfo) && line.shipmentInfo.length > 0,
      ),
    ).toBe(true);
    expect((await change(t, PROVIDER_STATES.shippedOrderExists.name, {}, 'teardown')).json).toEqual({
      removed: [],
    });
  });

  it('names for "an order with a customer discount exists" an order of the caller with a discounted line', async () => {
    const { id } = values(await change(t, PROVIDER_STATES.discountedOrderExists.name));
    const order = await t.client('v1').getOrder(id);
    expect(order.lines.some((line) => line.customerDiscount != null)).toBe(true);
  });

  it('gives "an order whose creation failed exists" a uuid that reads as creation failed', async () => {
    const { uuid } = values(await change(t, PROVIDER_STATES.orderCreationFailed.name));
    const failed = await caught(t.client('v2').getOrder(uuid));
    expect(isHttpError(failed) && [failed.status, failed.vendorMessage]).toEqual([
      404,
      expect.stringMatching(/creation failed/i),
    ]);
    expect(isOrderCreationFailedError(await caught(t.client('v2').waitForOrder(uuid)))).toBe(true);
    await change(t, PROVIDER_STATES.orderCreationFailed.name, {}, 'teardown');
  });

  it('gives "an order of another credential set exists" an order its owner reads and the caller cannot', async () => {
    const { id, uuid } = values(await change(t, PROVIDER_STATES.otherCredentialSetOrderExists.name));
    expect((await t.client('v2', OTHER).getOrder(uuid)).id).toBe(id);
    const hidden = await caught(t.client('v2', DEMO).getOrder(id));
    expect(isHttpError(hidden) && hidden.status).toBe(404);
    expect(await inspect(t, id)).toMatchObject({ userId: OTHER.userId });
    await change(t, PROVIDER_STATES.otherCredentialSetOrderExists.name, {}, 'teardown');
  });

  it('checks "no order exists with id {id}": it holds for an unused id and is refused with 409 for a used one', async () => {
    const { name } = PROVIDER_STATES.noOrderWithId;
    expect((await change(t, name, { id: 999_999_999 })).json).toEqual({});
    expect((await change(t, name, { id: '999999999' })).status).toBe(200);
    const { id } = values(await change(t, PROVIDER_STATES.orderExists.name));
    const taken = await change(t, name, { id });
    expect(taken.status).toBe(409);
    expect(taken.json).toEqual({ message: expect.stringContaining(`an order with id ${id} exists`) });
    await change(t, PROVIDER_STATES.orderExists.name, {}, 'teardown');
  });

  it('checks "fewer than {offset} orders exist" against the orders the caller can list', async () => {
    const { name } = PROVIDER_STATES.fewerOrdersThanOffset;
    const { count } = await t.client('v2').listOrders({ limit: 1 });
    expect((await change(t, name, { offset: count + 1 })).status).toBe(200);
    const refused = await change(t, name, { offset: count });
    expect(refused.status).toBe(409);
    expect(refused.json).toEqual({ message: expect.stringContaining(`has ${count} orders`) });
  });

  it.each([
    [PROVIDER_STATES.noOrderWithId.name, { id: 'abc' }, 'id must be a whole number'],
    [PROVIDER_STATES.noOrderWithId.name, {}, 'id must be a whole number'],
    [PROVIDER_STATES.fewerOrdersThanOffset.name, { offset: -1 }, 'offset must be a whole number'],
    [PROVIDER_STATES.ordersWithStatusExist.name, { status: 'lost' }, 'status must be one of'],
  ])('refuses "%s" with params %j with a 400 that says why', async (state, params, reason) => {
    const answer = await change(t, state, params);
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ message: expect.stringContaining(reason) });
  });

  it('refuses an unknown state with a 400 that names every known state', async () => {
    const answer = await change(t, 'an order exists with id 42');
    expect(answer.status).toBe(400);
    const { message } = answer.json as { message: string };
    expect(message).toContain('Unknown provider state "an order exists with id 42"');
    for (const { name } of Object.values(PROVIDER_STATES)) expect(message).toContain(`"${name}"`);
  });

  it.each([
    ['an action it does not know', { state: 'an order exists', action: 'prepare' }, 'action'],
    ['params that are not an object', { state: 'an order exists', params: [1] }, 'params'],
    ['no state', { action: 'setup' }, 'state'],
  ])('refuses a change with %s with a 400 naming the field', async (_what, body, field) => {
    const answer = await t.raw({
      method: 'POST',
      path: PROVIDER_STATES_PATH,
      credentials: false,
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ errors: [expect.objectContaining({ path: field })] });
  });

  it('keeps the orders of a state while another setup of it is not torn down: verifiers side by side keep theirs', async () => {
    // Found by an audit: a teardown removed the oldest setup's order, which another verifier
    // running at the same time was still using (its interaction then read 404).
    const { name } = PROVIDER_STATES.orderInProductionExists;
    const first = values(await change(t, name));
    const second = values(await change(t, name));
    expect((await change(t, name, {}, 'teardown')).json).toEqual({ removed: [] });
    const client = t.client('v2');
    expect((await client.getOrder(first.id)).id).toBe(first.id);
    expect((await change(t, name, {}, 'teardown')).json).toEqual({ removed: [first.id, second.id] });
    expect((await change(t, name, {}, 'teardown')).json).toEqual({ removed: [] });
  });

  it('describes on GET the states it knows, the caller and the other credential set', async () => {
    const answer = await t.raw({ path: PROVIDER_STATES_PATH, credentials: false });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      caller: DEMO.userId,
      otherCredentialSet: OTHER.userId,
      states: Object.values(PROVIDER_STATES).map(({ name, params, provides }) => ({
        name,
        params,
        provides,
      })),
    });
  });
});

describe('the provider-state endpoint on a sample API without seed orders and with one credential set', () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await startTestApi({ processingDelayMs: 0, control: true, seedOrders: false, credentials: [DEMO] });
  });
  afterAll(() => t.close());

  it('creates an order with the status "orders with status {status} exist" asks for, and teardown removes it', async () => {
    const { name } = PROVIDER_STATES.ordersWithStatusExist;
    for (const status of ['in-progress', 'completed', 'cancelled'] as const) {
      expect((await change(t, name, { status })).status).toBe(200);
      const listed = await t.client('v2').listOrders({ status });
      expect(listed.count, status).toBe(1);
      expect((await change(t, name, { status }, 'teardown')).status).toBe(200);
      expect((await t.client('v2').listOrders({ status })).count, status).toBe(0);
    }
  });

  it('refuses with 409 the states this store cannot reach: status unknown, a discount, another credential set', async () => {
    const answers = await Promise.all([
      change(t, PROVIDER_STATES.ordersWithStatusExist.name, { status: 'unknown' }),
      change(t, PROVIDER_STATES.discountedOrderExists.name),
      change(t, PROVIDER_STATES.otherCredentialSetOrderExists.name),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([409, 409, 409]);
    expect(answers[2]?.json).toEqual({ message: expect.stringContaining('--credentials twice') });
  });

  it('puts a fresh order in the shipped state when no order of the caller has been shipped', async () => {
    const { name } = PROVIDER_STATES.shippedOrderExists;
    const { id } = values(await change(t, name));
    const order = await t.client('v2').getOrder(id);
    expect(
      order.lines.every((line) => line.status === 'shipped' && (line.shipmentInfo?.length ?? 0) > 0),
    ).toBe(true);
    expect((await change(t, name, {}, 'teardown')).json).toEqual({ removed: [id] });
  });
});
