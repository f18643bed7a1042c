import { join } from 'node:path';
import { pactFileName } from '@print-contracts/client/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_INTERACTION_STATUS, type StubServer, startStubServer } from '../../src/index.js';
import { CONTRACTS_DIR, type PactInteraction, readPact } from '../../src/pact-files.js';
import { bodyDifferences } from '../../src/stub/request-difference.js';

const v2 = readPact(join(CONTRACTS_DIR, pactFileName('v2')));
const create = v2.interactions.find(
  (i) => i.description === 'a request to create an order',
) as PactInteraction;
const header = (name: string) => create.request.headers?.[name]?.[0] ?? '';

interface CreateBody {
  orderLines: Array<Record<string, unknown>>;
  deliveryAddress: Record<string, unknown>;
}

/** The contract's create body, changed by `change`. */
function createBody(change: (body: CreateBody) => void): CreateBody {
  const body = structuredClone(create.request.body?.content) as CreateBody;
  change(body);
  return body;
}

describe('the stub refusing a create whose body differs from the contract', () => {
  let stub: StubServer;
  beforeAll(async () => {
    stub = await startStubServer({ versions: ['v2'] });
  }, 60_000);
  afterAll(async () => {
    await stub.close();
  });

  const post = (body: unknown) =>
    fetch(`${stub.url}/orders`, {
      method: 'POST',
      headers: {
        'User-ID': header('User-ID'),
        'API-Secret': header('API-Secret'),
        Accept: header('Accept'),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });

  it.each([
    {
      given: 'a field of the wrong type',
      change: (body: CreateBody) => {
        (body.orderLines[0] as Record<string, unknown>).sku = 12;
      },
      want: /differs in body \$\.orderLines\[0\]\.sku: expected "06fa88a1-[^"]*", got 12$/,
    },
    {
      given: 'a required field missing',
      change: (body: CreateBody) => {
        delete body.deliveryAddress.zipcode;
      },
      want: /differs in body \$\.deliveryAddress\.zipcode: missing, expected "1234AB"$/,
    },
  ])(`answers ${NO_INTERACTION_STATUS} naming the path of $given`, async ({ change, want }) => {
    const answer = await post(createBody(change));
    expect(answer.status).toBe(NO_INTERACTION_STATUS);
    const { message } = (await answer.json()) as { message: string };
    expect(message).toContain('"a request to create an order" (print-order-api-v2)');
    expect(message).toMatch(want);
  });

  it(`answers ${NO_INTERACTION_STATUS} naming the body's difference on a path the contract matches by its shape`, async () => {
    const update = v2.interactions.find(
      (i) => i.description === 'a request to update an order with the whole payload',
    ) as PactInteraction;
    const body = structuredClone(update.request.body?.content) as { deliveryMethod?: unknown };
    body.deliveryMethod = 'express';
    const answer = await fetch(`${stub.url}/orders/5`, {
      method: 'PUT',
      headers: {
        'User-ID': header('User-ID'),
        'API-Secret': header('API-Secret'),
        Accept: header('Accept'),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
    expect(answer.status).toBe(NO_INTERACTION_STATUS);
    expect(((await answer.json()) as { message: string }).message).toMatch(
      /differs in body \$\.deliveryMethod: expected \d+, got "express"$/,
    );
  });

  it('answers the contract body itself as the contract does', async () => {
    const answer = await post(createBody(() => {}));
    expect(answer.status).toBe(create.response.status);
  });
});

describe('bodyDifferences', () => {
  const interaction = (content: unknown, rules: Record<string, unknown> = {}): PactInteraction => ({
    description: 'a request',
    type: 'Synchronous/HTTP',
    request: {
      method: 'POST',
      path: '/api/orders',
      body: { content, contentType: 'application/json' },
      matchingRules: { body: rules },
    },
    response: { status: 201 },
  });
  const sent = (value: unknown) => Buffer.from(JSON.stringify(value));

  it.each([
    {
      given: 'a regex rule broken by a number',
      contract: interaction(
        { lines: [{ sku: 'abc' }] },
        { '$.lines[*].sku': { matchers: [{ match: 'regex', regex: '^[a-z]+$' }] } },
      ),
      body: { lines: [{ sku: 12 }] },
      want: ['body $.lines[0].sku: expected a string matching ^[a-z]+$, got 12'],
    },
    {
      given: 'a type rule reaching the values below it',
      contract: interaction(
        { line: { quantity: 1, name: 'x' } },
        { '$.line': { matchers: [{ match: 'type' }] } },
      ),
      body: { line: { quantity: '1', name: 'other' } },
      want: ['body $.line.quantity: expected a number, got "1"'],
    },
    {
      given: 'an array of at least one item, sent empty',
      contract: interaction(
        { lines: [{ sku: 'a' }] },
        { '$.lines': { matchers: [{ match: 'type', min: 1 }] } },
      ),
      body: { lines: [] },
      want: ['body $.lines: expected an array of at least 1 items, got an array of 0 items'],
    },
    {
      given: 'a key the contract does not have',
      contract: interaction({ reason: 'x' }),
      body: { reason: 'x', note: 'y' },
      want: ['body $.note: not in the contract'],
    },
  ])('names $given', ({ contract, body, want }) => {
    expect(bodyDifferences(contract, sent(body))).toEqual(want);
  });

  it('finds nothing in a body the rules accept', () => {
    const contract = interaction(
      { lines: [{ sku: 'abc', quantity: 1 }] },
      {
        '$.lines': { matchers: [{ match: 'type', min: 1 }] },
        '$.lines[*].sku': { matchers: [{ match: 'regex', regex: '^[a-z]+$' }] },
      },
    );
    expect(
      bodyDifferences(
        contract,
        sent({
          lines: [
            { sku: 'xyz', quantity: 3 },
            { sku: 'q', quantity: 9 },
          ],
        }),
      ),
    ).toEqual([]);
  });
});
