import { existsSync, readFileSync } from 'node:fs';
import type { SampleApi } from '@print-contracts/sample-api';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_FILES, type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, fixedTarget, sampleTarget, verifyArgs } from './helpers/targets.js';

describe('the verifier against a target that breaks the contract', () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'));
    api = await sampleTarget();
  });
  afterAll(async () => {
    await api.close();
    await space.remove();
  });

  it('exits 1 and names the interaction whose answer no longer matches', async () => {
    // The vendor changes GET /orders/{id}: its answer breaks the order schema.
    api.setFaults([{ operation: 'getOrder', badSchema: true }]);
    const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
    const reports = space.path('broken');
    const code = await runVerify(
      verifyArgs({
        baseUrl: api.url,
        mode: 'sample',
        control: true,
        pact: space.path('pacts'),
        reports,
      }),
      output.io,
    );
    api.setFaults([]);

    expect(code).toBe(1);
    const report = JSON.parse(readFileSync(`${reports}/${REPORT_FILES.json}`, 'utf8')) as RunReport;
    const failed = report.interactions
      .filter((item) => item.verdict === 'failed')
      .map((item) => `${item.version} ${item.description}`);
    expect(failed).toContain('v1 a request for an order by id');
    expect(failed).toContain('v2 a request for an order by uuid');
    expect(failed).not.toContain('v1 a request to create a test order');
    expect(output.stdout()).toMatch(/a request for an order by id\s+FAILED\s+FAILED/);
    expect(readFileSync(`${reports}/${REPORT_FILES.junit}`, 'utf8')).toContain('type="contract-broken"');
  });

  it('still cancels every order it created, and leaves the ledger empty', async () => {
    const orders = await ordersOf(api);
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.filter((order) => order.status !== 'cancelled')).toEqual([]);
    const report = JSON.parse(readFileSync(space.path('broken', REPORT_FILES.json), 'utf8')) as RunReport;
    expect(report.teardown).toMatchObject({ open: 0, problems: [] });
    expect(existsSync(space.path('broken', 'verify-ledger.jsonl'))).toBe(false);
  });

  it('reports a target answering 500 to everything as failed, interaction by interaction', async () => {
    const broken = await fixedTarget(500, () => ({ message: 'Internal Server Error' }));
    try {
      const output = captureIo({
        cwd: space.dir,
        env: { PRINT_API_USER_ID: 'fixed-user', PRINT_API_SECRET: 'fixed-target-secret' },
      });
      const code = await runVerify(
        verifyArgs({
          baseUrl: broken.url,
          mode: 'sample',
          pact: space.path('pacts'),
          reports: space.path('r500'),
          // A create answered 500 may have been made: teardown looks for it once its window is past.
          extra: ['--api-version', 'v2', '--creation-timeout', '2000'],
        }),
        output.io,
      );
      expect(code).toBe(1);
      const report = JSON.parse(readFileSync(space.path('r500', REPORT_FILES.json), 'utf8')) as RunReport;
      const list = report.interactions.find(
        (item) => item.description === 'a request for the first page of orders',
      );
      expect(list).toMatchObject({ verdict: 'failed' });
      expect(list?.reason).toMatch(/status/);
      // Without a control surface or a second credential set, those interactions are not verifiable here.
      const production = report.interactions.find(
        (item) => item.description === 'a request to cancel an order in production',
      );
      expect(production).toMatchObject({ verdict: 'not-verifiable' });
      // Its own 500 while arranging is the vendor contradicting its documents, not a busy target.
      const byId = report.interactions.find((item) => item.description === 'a request for an order by id');
      expect(byId).toMatchObject({ verdict: 'failed' });
      expect(byId?.reason).toMatch(/answered 500 to a request the vendor documents/);
      // A create answered 500 may have been made: none is crossed off unseen, and each is said.
      expect(report.teardown.created).toBe(3);
      expect(report.teardown.open).toBe(3);
      expect(report.teardown.problems.join('\n')).toMatch(/pnpm verify --cleanup looks again/);
      expect(output.stdout()).toMatch(
        /; 3 still open in .* \(3 maybe never made: their creates got no usable answer; run `pnpm verify --cleanup`\)/,
      );
    } finally {
      await broken.close();
    }
  });
});
