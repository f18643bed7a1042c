import { describe, expect, it } from 'vitest';
import { parsePact } from '../src/pacts/load-pacts.js';
import { planRun } from '../src/plan/plan.js';
import { fixtureInteractions, fixturePact, testOrderBody } from './helpers/fixture-pact.js';

const pact = (interactions = fixtureInteractions('v1')) =>
  parsePact(JSON.stringify(fixturePact('v1', interactions)), 'plan.json', {
    kind: 'file',
    path: 'plan.json',
  });

const byDescription = (plan: ReturnType<typeof planRun>) =>
  Object.fromEntries(plan.interactions.map((item) => [item.interaction.description, item]));

describe('the plan', () => {
  it('replays everything on a target with a control surface and a second credential set', () => {
    const plan = planRun([pact()], {
      mode: 'sample',
      capabilities: { control: true, otherCredentials: true },
    });
    expect(plan.interactions.every((item) => item.status === 'replay')).toBe(true);
  });

  it('shares one order among read-only interactions and gives each mutating one its own', () => {
    const plan = planRun([pact()], {
      mode: 'sample',
      capabilities: { control: true, otherCredentials: true },
    });
    const items = byDescription(plan);
    const key = (description: string) => items[description]?.fixtures[0]?.key;
    expect(key('a request for an order by id')).toBe(key('a request for an order by uuid'));
    expect(key('a request to cancel an order')).not.toBe(key('a request for an order by id'));
    expect(plan.fixtures.size).toBe(6);
  });

  it('replays interactions without orders to wait for early', () => {
    const plan = planRun([pact()], {
      mode: 'sample',
      capabilities: { control: true, otherCredentials: true },
    });
    const items = byDescription(plan);
    expect(items['a request for the first page of orders']?.phase).toBe('early');
    expect(items['a request for an unknown order']?.phase).toBe('early');
    expect(items['a request for an order by id']?.phase).toBe('arranged');
  });

  it('marks states the target cannot reach as not verifiable here, with the reason', () => {
    const plan = planRun([pact()], {
      mode: 'sample',
      capabilities: { control: false, otherCredentials: false },
    });
    const items = byDescription(plan);
    expect(items['a request to cancel an order in production']).toMatchObject({
      status: 'not-verifiable',
      reason: expect.stringMatching(/control surface/),
    });
    expect(items["a request for another credential set's order"]).toMatchObject({
      status: 'not-verifiable',
      reason: expect.stringMatching(/PRINT_API_OTHER_USER_ID/),
    });
  });

  it('keeps a non-test create back in live mode, but replays a test order', () => {
    const interactions = fixtureInteractions('v1');
    const create = interactions.find(
      (item) => item.description === 'a request to create a test order',
    ) as Record<string, unknown>;
    const request = create.request as { body: object };
    const live = {
      ...create,
      description: 'a request to create an order',
      request: { ...request, body: { ...request.body, content: testOrderBody('v1', false) } },
    };
    const plan = planRun([pact([create, live])], {
      mode: 'live',
      capabilities: { control: false, otherCredentials: false },
    });
    expect(plan.interactions.map((item) => item.status)).toEqual(['replay', 'not-verifiable']);
  });

  it('fails an interaction whose request injects a value none of its states provides', () => {
    const [, get] = fixtureInteractions('v1');
    const plan = planRun([pact([{ ...get, providerStates: [] }])], {
      mode: 'sample',
      capabilities: { control: true, otherCredentials: true },
    });
    expect(plan.interactions[0]).toMatchObject({
      status: 'failed',
      reason: expect.stringMatching(
        /^the request injects \$\{id\}, which none of its provider states provides$/,
      ),
    });
  });

  it('counts the orders the run may create, for "fewer than N orders exist"', () => {
    const plan = planRun([pact()], {
      mode: 'sample',
      capabilities: { control: true, otherCredentials: true },
    });
    // Four orders of the main credential set for states (the shared one, the cancelled one, the one in
    // production, the failed one), and one replayed create; the other credential set's does not count.
    expect(plan.plannedCreates).toBe(5);
  });
});
