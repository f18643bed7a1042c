import { existsSync, readFileSync } from 'node:fs';
import type { FaultRule, SampleApi } from '@print-contracts/sample-api';
import { captureIo, workspace } from '@print-contracts/test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunReport, runVerify } from '../src/index.js';
import { writeFixturePacts } from './helpers/fixture-pact.js';
import { ordersOf } from './helpers/orders.js';
import { credentialEnv, sampleTarget, verifyArgs } from './helpers/targets.js';

/**
 * Each fault on `GET /orders`, the verdict of the list interaction, what its reason says, and
 * the exit status: a target that gives no answer (after the retries) is unavailable (3), one
 * that answers something the contract does not allow broke it (1).
 */
const FAULTS: readonly {
  name: string;
  rule: FaultRule;
  verdict: string;
  reason: RegExp;
  code: number;
  extra?: readonly string[];
}[] = [
  {
    name: 'latency beyond the timeout',
    rule: { latencyMs: 4_000 },
    verdict: 'target-unavailable',
    reason: /the target timed out waiting for the answer/,
    code: 3,
  },
  {
    name: 'a 503',
    rule: { status: 503 },
    verdict: 'target-unavailable',
    reason: /it answered 503 2 times/,
    code: 3,
  },
  {
    // Throttling is waited out up to the run's bound on waiting; only a target throttling past it is unavailable.
    name: 'a 429 with Retry-After on every request, past the creation timeout',
    rule: { status: 429, retryAfterSeconds: 1 },
    verdict: 'target-unavailable',
    reason: /it answered 429 \d+ times \(Retry-After 1 s\)/,
    code: 3,
    extra: ['--creation-timeout', '3000'],
  },
  {
    name: 'a dropped connection',
    rule: { drop: true },
    verdict: 'target-unavailable',
    reason: /the target dropped the connection/,
    code: 3,
  },
  {
    name: 'a truncated body',
    rule: { truncate: true },
    verdict: 'target-unavailable',
    reason: /the target closed the connection before the body was complete \(truncated answer\)/,
    code: 3,
  },
  {
    name: 'a non-JSON body',
    rule: { nonJson: true },
    verdict: 'failed',
    reason: /^body: Expected a body of 'application\/json'/,
    code: 1,
  },
  {
    name: 'a 200 that breaks the schema',
    rule: { badSchema: true },
    verdict: 'failed',
    reason: /^body \$/,
    code: 1,
  },
];

// Every list waits out its timeout twice: a bound with room for a busy machine.
describe('the verifier against a target with faults on GET /orders', { timeout: 90_000 }, () => {
  let space: Awaited<ReturnType<typeof workspace>>;
  let api: SampleApi;

  beforeAll(async () => {
    space = await workspace();
    await writeFixturePacts(space.path('pacts'), ['v1']);
    api = await sampleTarget();
  });
  afterAll(async () => {
    await api.close();
    await space.remove();
  });

  for (const [index, { name, rule, verdict, reason, code: status, extra = [] }] of FAULTS.entries()) {
    it(`reports ${name} as ${verdict} with exit ${status}, tears down and leaves the ledger empty`, async () => {
      api.setFaults([{ operation: 'listOrders', ...rule }]);
      const reports = space.path(`fault-${index}`);
      const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
      const started = performance.now();
      const code = await runVerify(
        verifyArgs({
          baseUrl: api.url,
          mode: 'sample',
          control: true,
          pact: space.path('pacts'),
          reports,
          // A bound a busy machine meets with room to spare, well below the injected latency.
          extra: ['--request-timeout', '1500', '--retries', '1', ...extra],
        }),
        output.io,
      );
      const elapsedMs = performance.now() - started;
      api.setFaults([]);

      expect(output.stderr()).toBe('');
      expect(code).toBe(status);
      const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8')) as RunReport;
      const list = report.interactions.find(
        (item) => item.description === 'a request for the first page of orders',
      );
      expect(list?.verdict).toBe(verdict);
      expect(list?.reason).toMatch(reason);
      // The time Pact gives for the replay (`4.394s`, once read as 394 s) fits inside the run.
      expect(list?.ms).toBeGreaterThanOrEqual(0);
      expect(list?.ms).toBeLessThanOrEqual(elapsedMs);
      // Unaffected: the create and the cancel, which touch no list.
      for (const description of ['a request to create a test order', 'a request to cancel an order']) {
        expect(report.interactions.find((item) => item.description === description)?.verdict).toBe(
          'verified',
        );
      }
      expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(false);
      expect((await ordersOf(api)).filter((order) => order.status !== 'cancelled')).toEqual([]);
    });
  }

  it('waits out a 429 with Retry-After, verifies the list, reports the throttling and exits 0', async () => {
    api.setFaults([{ operation: 'listOrders', status: 429, retryAfterSeconds: 1, times: 3 }]);
    const reports = space.path('fault-throttled');
    const output = captureIo({ cwd: space.dir, env: credentialEnv(api) });
    const code = await runVerify(
      verifyArgs({
        baseUrl: api.url,
        mode: 'sample',
        control: true,
        pact: space.path('pacts'),
        reports,
        extra: ['--request-timeout', '1500', '--retries', '1'],
      }),
      output.io,
    );
    api.setFaults([]);

    expect(output.stderr()).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(readFileSync(`${reports}/verify-report.json`, 'utf8')) as RunReport;
    expect(
      report.interactions.find((item) => item.description === 'a request for the first page of orders')
        ?.verdict,
    ).toBe('verified');
    expect(report.totals.targetUnavailable).toBe(0);
    // Every one of the three 429s was waited out, Retry-After's second each.
    expect(report.retries).toMatchObject({ answers429: 3, answers503: 0 });
    expect(report.retries?.waitedMs).toBeGreaterThanOrEqual(3_000);
    expect(output.stdout()).toMatch(/Retries: the target throttled or missed requests \(3 answers 429\)/);
    expect(existsSync(`${reports}/verify-ledger.jsonl`)).toBe(false);
  });
});
