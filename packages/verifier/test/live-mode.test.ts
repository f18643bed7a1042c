import { readFileSync } from 'node:fs';
import type { SampleApi } from '@print-contracts/sample-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from '../src/index.js';
import { cliEnv, runCli } from './helpers/cli.js';
import { fixtureInteractions, testOrderBody, writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, httpsFront, sampleTarget, TLS_CERT, verifyArgs } from './helpers/targets.js';
import { workspace } from './helpers/workspace.js';

describe('the verify command in live mode', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;
  let front: Awaited<ReturnType<typeof httpsFront>>;
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
    front = await httpsFront(api.origin);
    result = await runCli(
      verifyArgs({
        baseUrl: front.url,
        mode: 'live',
        pact: space.path('pacts'),
        reports: space.path('reports'),
      }),
      // Only the main credential set; the self-signed loopback certificate is trusted for this run.
      {
        cwd: space.dir,
        env: cliEnv({
          ...credentialEnv(api),
          PRINT_API_OTHER_USER_ID: '',
          PRINT_API_OTHER_SECRET: '',
          NODE_EXTRA_CA_CERTS: TLS_CERT,
        }),
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
    const creates = front.forwarded.filter(
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

  it('cancels the test orders it created', async () => {
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
  });
});
