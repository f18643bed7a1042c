import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import type { SampleApi } from '@print-contracts/sample-api';
import { cliEnv, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../src/index.js';
import { runCli } from './helpers/cli.js';
import { fixtureInteractions, testOrderBody, writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { liveEnv, sampleTarget, front as startFront, TLS_CERT, verifyArgs } from './helpers/targets.js';

const ADDRESS = {
  firstName: 'Ann',
  lastName: 'Smit',
  street: 'Laan',
  housenumber: '1',
  zipcode: '1000 AA',
  city: 'Amsterdam',
  country: 'nl',
};

/** A v2 create body of the team's own: business cards, which the sample API sells. */
const FIXTURE = {
  orderLines: [
    {
      sku: '2a3b4c5d-6e7f-4a81-9b02-c3d4e5f60712',
      attributes: [{ attribute: 'quantity', value: '500' }],
      files: [{ url: 'https://files.example.com/cards.pdf' }],
    },
  ],
  invoiceAddress: ADDRESS,
  deliveryAddress: ADDRESS,
  deliveryMethod: 1,
};

describe('the verify command in live mode', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let front: Awaited<ReturnType<typeof startFront>>;
  let result: Awaited<ReturnType<typeof runCli>>;
  let report: RunReport;

  beforeAll(async () => {
    space = await workspace();
    // The fixture pact, plus a create that is not a test order.
    await writeFixturePacts(space.path('pacts'), ['v2'], (version, interactions) => {
      const create = fixtureInteractions(version).find(
        (item) => item.description === 'a request to create a test order',
      );
      const request = create?.request as { body: { content: unknown } };
      const live = {
        ...create,
        key: 'live-create',
        description: 'a request to create an order',
        request: { ...request, body: { ...request.body, content: testOrderBody(version, false) } },
      };
      return [...interactions, live];
    });
    api = await sampleTarget({ control: false });
    front = await startFront(api.origin, {}, { tls: true });
    // A product of the team's own (here: one the sample API sells), given as data; testOrder left out.
    await writeFile(space.path('order.json'), JSON.stringify(FIXTURE));
    result = await runCli(
      verifyArgs({
        baseUrl: front.url,
        mode: 'live',
        pact: space.path('pacts'),
        reports: space.path('reports'),
        extra: ['--order-fixture', space.path('order.json'), '--verbose'],
      }),
      // Only the main credential set; the self-signed loopback certificate is trusted for this run.
      {
        cwd: space.dir,
        env: cliEnv(liveEnv(api)),
      },
    );
    report = JSON.parse(readFileSync(space.path('reports', 'verify-report.json'), 'utf8')) as RunReport;
  });
  afterAll(async () => {
    await front.close();
    await api.close();
    await space.remove();
  });

  it('does not replay a create without testOrder, and reports it not verifiable here', () => {
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const create = report.interactions.find((item) => item.description === 'a request to create an order');
    expect(create).toMatchObject({ verdict: 'not-verifiable' });
    expect(create?.reason).toMatch(/^live mode: the request would create an order without "testOrder": true/);
    expect(
      report.interactions.find((item) => item.description === 'a request to create a test order'),
    ).toMatchObject({
      verdict: 'verified',
    });
  });

  it('sends no order to the target that is not a test order', () => {
    const creates = front.requests.filter(
      (request) => request.method === 'POST' && request.path === '/api/orders',
    );
    expect(creates.length).toBeGreaterThanOrEqual(2);
    for (const create of creates) expect(JSON.parse(create.body)).toMatchObject({ testOrder: true });
  });

  it('reports states it cannot reach on this target as not verifiable, never as passed', () => {
    const byDescription = Object.fromEntries(report.interactions.map((item) => [item.description, item]));
    expect(byDescription['a request to cancel an order in production']).toMatchObject({
      verdict: 'not-verifiable',
    });
    expect(byDescription["a request for another credential set's order"]).toMatchObject({
      verdict: 'not-verifiable',
    });
    expect(report.totals.notVerifiable).toBe(3);
  });

  it('arranges its states with the product of --order-fixture, as test orders carrying the run reference', () => {
    const arranged = front.requests
      .filter((request) => request.method === 'POST' && request.path === '/api/orders')
      .map(
        (request) =>
          JSON.parse(request.body) as {
            orderLines: { sku?: string }[];
            testOrder: boolean;
            reference: string;
          },
      )
      .filter((body) => body.orderLines[0]?.sku === FIXTURE.orderLines[0]?.sku);
    expect(arranged.length).toBeGreaterThanOrEqual(2);
    for (const body of arranged)
      expect(body).toMatchObject({
        testOrder: true,
        reference: expect.stringMatching(/^contract verify [0-9a-f]{8}$/),
      });
    expect(result.stdout).toContain(`orders it creates in v2: ${space.path('order.json')}`);
  });

  it('cancels the test orders it created, and leaves no ledger', async () => {
    expect(existsSync(space.path('reports', 'verify-ledger.jsonl'))).toBe(false);
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
  });
});

describe('the verify command in live mode with an --order-fixture that is no test order', () => {
  it.each([
    [
      'says "testOrder": false',
      { ...FIXTURE, testOrder: false },
      /"testOrder": false; the verifier creates test orders only/,
    ],
    [
      'is no create body of its version',
      { ...FIXTURE, deliveryMethod: 6 },
      /not a valid v2 create-order body: deliveryMethod must be a v2 delivery method id/,
    ],
  ])('exits 2 with one line when the fixture %s, before anything is sent', async (_what, fixture, reason) => {
    const space = await workspace();
    // A live target that records whatever reaches it: nothing may.
    const target = await startFront('http://127.0.0.1:9', {}, { tls: true });
    try {
      await writeFixturePacts(space.path('pacts'), ['v2']);
      await writeFile(space.path('order.json'), JSON.stringify(fixture));
      const result = await runCli(
        verifyArgs({
          baseUrl: target.url,
          mode: 'live',
          pact: space.path('pacts'),
          reports: space.path('reports'),
          extra: ['--order-fixture', space.path('order.json')],
        }),
        {
          cwd: space.dir,
          env: cliEnv({
            PRINT_API_USER_ID: 'someone',
            PRINT_API_SECRET: 'a-long-enough-secret',
            NODE_EXTRA_CA_CERTS: TLS_CERT,
          }),
        },
      );
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(reason);
      expect(target.requests).toEqual([]);
    } finally {
      await target.close();
      await space.remove();
    }
  });
});
